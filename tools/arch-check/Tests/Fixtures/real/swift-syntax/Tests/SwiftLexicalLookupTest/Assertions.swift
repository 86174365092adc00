@_spi(Experimental) import SwiftLexicalLookup
import SwiftParser
@_spi(Testing) import SwiftSyntax
import XCTest
import _SwiftSyntaxTestSupport
