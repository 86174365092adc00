import SwiftParser
import SwiftSyntax
import XCTest
