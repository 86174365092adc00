#if compiler(>=6)
internal import SwiftBasicFormat
internal import SwiftDiagnostics
@_spi(ExperimentalLanguageFeatures) internal import SwiftIfConfig
internal import SwiftOperators
@_spi(ExperimentalLanguageFeatures) internal import SwiftParser
internal import SwiftSyntax
@_spi(MacroExpansion) @_spi(ExperimentalLanguageFeatures) internal import SwiftSyntaxMacroExpansion
@_spi(ExperimentalLanguageFeatures) internal import SwiftSyntaxMacros
#else
import SwiftBasicFormat
import SwiftDiagnostics
@_spi(ExperimentalLanguageFeatures) import SwiftIfConfig
import SwiftOperators
@_spi(ExperimentalLanguageFeatures) import SwiftParser
import SwiftSyntax
@_spi(MacroExpansion) @_spi(ExperimentalLanguageFeatures) import SwiftSyntaxMacroExpansion
@_spi(ExperimentalLanguageFeatures) import SwiftSyntaxMacros
#endif
        #if RESILIENT_LIBRARIES
        #endif
