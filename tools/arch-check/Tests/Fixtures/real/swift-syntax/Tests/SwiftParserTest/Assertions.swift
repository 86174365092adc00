import SwiftDiagnostics
@_spi(FixItApplier) import SwiftIDEUtils
@_spi(Testing) @_spi(RawSyntax) @_spi(AlternateTokenIntrospection) @_spi(ExperimentalLanguageFeatures) import SwiftParser
@_spi(RawSyntax) import SwiftParserDiagnostics
@_spi(RawSyntax) import SwiftSyntax
import XCTest
import _SwiftSyntaxTestSupport
    #if SWIFTPARSER_ENABLE_ALTERNATE_TOKEN_INTROSPECTION
    #endif
      #if SWIFTPARSER_ENABLE_ALTERNATE_TOKEN_INTROSPECTION
      #endif
