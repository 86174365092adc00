#if compiler(>=6)
@_spi(RawSyntax) internal import SwiftSyntax
#else
@_spi(RawSyntax) import SwiftSyntax
#endif
    #if SWIFTPARSER_ENABLE_ALTERNATE_TOKEN_INTROSPECTION
    #endif
    #if SWIFTPARSER_ENABLE_ALTERNATE_TOKEN_INTROSPECTION
    #endif
