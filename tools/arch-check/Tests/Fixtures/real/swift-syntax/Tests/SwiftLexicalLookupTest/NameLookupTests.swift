import Foundation
import SwiftLexicalLookup
import SwiftSyntax
import XCTest
