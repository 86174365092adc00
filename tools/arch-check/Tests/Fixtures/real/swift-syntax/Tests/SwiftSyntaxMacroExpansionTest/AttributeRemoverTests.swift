import SwiftParser
import SwiftSyntax
@_spi(Testing) import SwiftSyntaxMacroExpansion
import XCTest
import _SwiftSyntaxTestSupport
