#if compiler(>=6)
@_spi(RawSyntax) internal import SwiftParser
@_spi(RawSyntax) public import SwiftSyntax
#else
@_spi(RawSyntax) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax
#endif
#if compiler(>=6)
#else
#endif
#if compiler(>=6)
#else
#endif
#if compiler(>=6)
#else
#endif
