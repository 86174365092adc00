#if compiler(>=6)
internal import SwiftDiagnostics
internal import SwiftIfConfig
internal import SwiftOperators
@_spi(ExperimentalLanguageFeatures) internal import SwiftParser
internal import SwiftSyntax
internal import SwiftSyntaxMacros
#else
import SwiftDiagnostics
import SwiftIfConfig
import SwiftOperators
@_spi(ExperimentalLanguageFeatures) import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacros
#endif
    #if RESILIENT_LIBRARIES
    #endif
    #if RESILIENT_LIBRARIES
    #endif
