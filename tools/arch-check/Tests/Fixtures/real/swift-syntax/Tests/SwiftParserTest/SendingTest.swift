@_spi(ExperimentalLanguageFeatures) import SwiftParser
import XCTest
