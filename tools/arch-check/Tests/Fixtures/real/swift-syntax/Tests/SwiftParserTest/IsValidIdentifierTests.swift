import SwiftParser
import XCTest
