import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import XCTest
