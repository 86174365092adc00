#if compiler(>=6)
internal import SwiftDiagnostics
@_spi(RawSyntax) internal import SwiftSyntax
#else
import SwiftDiagnostics
@_spi(RawSyntax) import SwiftSyntax
#endif
