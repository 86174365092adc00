#if compiler(>=6)
@_spi(RawSyntax) public import SwiftSyntax
#else
@_spi(RawSyntax) import SwiftSyntax
#endif
  #if DEBUG
  #else
  #endif
  #if SWIFTPARSER_ENABLE_ALTERNATE_TOKEN_INTROSPECTION
  #endif
