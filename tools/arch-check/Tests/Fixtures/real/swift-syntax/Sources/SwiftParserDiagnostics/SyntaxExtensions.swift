#if compiler(>=6)
internal import SwiftBasicFormat
@_spi(Diagnostics) internal import SwiftParser
@_spi(RawSyntax) @_spi(ExperimentalLanguageFeatures) internal import SwiftSyntax
#else
import SwiftBasicFormat
@_spi(Diagnostics) import SwiftParser
@_spi(RawSyntax) @_spi(ExperimentalLanguageFeatures) import SwiftSyntax
#endif
      #if RESILIENT_LIBRARIES
      #endif
