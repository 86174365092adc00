@_spi(RawSyntax) import SwiftSyntax
