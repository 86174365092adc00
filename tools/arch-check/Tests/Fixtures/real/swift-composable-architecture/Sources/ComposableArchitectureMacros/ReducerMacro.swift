import Foundation
import SwiftDiagnostics
import SwiftOperators
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
#if !canImport(SwiftSyntax600)
  import SwiftSyntaxMacroExpansion
#endif
