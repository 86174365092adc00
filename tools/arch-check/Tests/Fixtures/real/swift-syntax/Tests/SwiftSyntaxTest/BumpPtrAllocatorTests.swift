@_spi(Testing) import SwiftSyntax
import XCTest
