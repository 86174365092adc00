import Foundation
@_spi(Experimental) import SwiftLexicalLookup
import SwiftSyntax
import XCTest
