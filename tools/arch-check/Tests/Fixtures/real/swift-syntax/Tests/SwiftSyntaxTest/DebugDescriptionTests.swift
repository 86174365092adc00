import SwiftParser
import SwiftSyntax
import XCTest
import _SwiftSyntaxTestSupport
  #if DEBUG
  #endif
