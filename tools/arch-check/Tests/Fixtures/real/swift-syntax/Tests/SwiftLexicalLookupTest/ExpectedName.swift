@_spi(Experimental) import SwiftLexicalLookup
import SwiftSyntax
import XCTest
