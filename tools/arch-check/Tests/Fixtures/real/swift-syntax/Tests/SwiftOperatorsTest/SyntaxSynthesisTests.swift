import SwiftOperators
import SwiftSyntax
import XCTest
