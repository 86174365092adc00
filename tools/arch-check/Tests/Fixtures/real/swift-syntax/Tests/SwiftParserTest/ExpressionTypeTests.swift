@_spi(ExperimentalLanguageFeatures) import SwiftParser
import SwiftSyntax
import XCTest
