@_spi(Testing) import SwiftOperators
import SwiftParser
import SwiftSyntax
import XCTest
import _SwiftSyntaxTestSupport
