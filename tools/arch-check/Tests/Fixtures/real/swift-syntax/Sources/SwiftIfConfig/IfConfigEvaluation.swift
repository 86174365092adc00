import SwiftDiagnostics
import SwiftOperators
@_spi(RawSyntax) import SwiftSyntax
