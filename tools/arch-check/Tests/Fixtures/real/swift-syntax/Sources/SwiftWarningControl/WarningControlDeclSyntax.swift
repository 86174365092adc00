import SwiftIfConfig
@_spi(ExperimentalLanguageFeatures) import SwiftSyntax
