@_spi(Testing) import SwiftDiagnostics
import XCTest
import _SwiftSyntaxTestSupport
