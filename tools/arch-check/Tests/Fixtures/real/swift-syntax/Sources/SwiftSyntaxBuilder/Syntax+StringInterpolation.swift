#if compiler(>=6)
public import SwiftBasicFormat
internal import SwiftDiagnostics
@_spi(RawSyntax) @_spi(Testing) internal import SwiftParser
@_spi(RawSyntax) public import SwiftSyntax
#else
import SwiftBasicFormat
import SwiftDiagnostics
@_spi(RawSyntax) @_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax
#endif
#if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
#endif
#if compiler(>=6)
#endif
#if compiler(>=6)
#else
#endif
