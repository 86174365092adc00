import SwiftDiagnostics
import SwiftOperators
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
#if !canImport(SwiftSyntax600)
  import SwiftSyntaxMacroExpansion
#endif
  #if canImport(SwiftSyntax601)
  #else
  #endif
