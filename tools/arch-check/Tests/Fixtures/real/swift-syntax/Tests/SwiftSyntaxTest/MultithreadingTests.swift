@_spi(RawSyntax) import SwiftSyntax
import XCTest
