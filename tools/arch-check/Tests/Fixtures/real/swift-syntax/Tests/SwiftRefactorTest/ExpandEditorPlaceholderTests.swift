import SwiftBasicFormat
import SwiftParser
@_spi(Testing) import SwiftRefactor
import SwiftSyntax
import SwiftSyntaxBuilder
import XCTest
import _SwiftSyntaxTestSupport
