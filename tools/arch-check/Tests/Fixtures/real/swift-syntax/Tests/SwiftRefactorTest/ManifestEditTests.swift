@_spi(FixItApplier) import SwiftIDEUtils
import SwiftParser
@_spi(PackageRefactor) import SwiftRefactor
import SwiftSyntax
import SwiftSyntaxBuilder
import XCTest
import _SwiftSyntaxTestSupport
