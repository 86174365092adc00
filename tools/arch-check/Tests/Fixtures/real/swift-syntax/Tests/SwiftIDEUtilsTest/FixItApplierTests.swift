@_spi(FixItApplier) import SwiftIDEUtils
import SwiftSyntax
import XCTest
