import SwiftSyntax
import XCTest
