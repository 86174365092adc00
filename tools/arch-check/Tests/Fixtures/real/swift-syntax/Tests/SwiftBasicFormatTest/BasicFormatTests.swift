import SwiftBasicFormat
import SwiftParser
@_spi(ExperimentalLanguageFeatures) import SwiftSyntax
@_spi(Testing) import SwiftSyntaxBuilder
import XCTest
import _SwiftSyntaxTestSupport
