import Foundation
@_spi(Experimental) @_spi(_QualifiedLookup) import SwiftLexicalLookup
import SwiftParser
import SwiftSyntax
import XCTest
