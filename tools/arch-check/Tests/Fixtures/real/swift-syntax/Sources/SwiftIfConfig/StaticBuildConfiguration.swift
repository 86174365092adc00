#if compiler(>=6)
@_spi(ExperimentalLanguageFeatures) public import SwiftParser
public import SwiftSyntax
#else
@_spi(ExperimentalLanguageFeatures) import SwiftParser
import SwiftSyntax
#endif
