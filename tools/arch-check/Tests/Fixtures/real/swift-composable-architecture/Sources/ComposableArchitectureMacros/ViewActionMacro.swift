import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros
#if !canImport(SwiftSyntax600)
  import SwiftSyntaxMacroExpansion
#endif
