@_spi(Compiler) import SwiftIDEUtils
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import XCTest
import _SwiftSyntaxTestSupport
