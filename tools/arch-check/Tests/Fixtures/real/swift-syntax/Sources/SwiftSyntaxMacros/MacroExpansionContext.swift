#if compiler(>=6)
public import SwiftDiagnostics
public import SwiftIfConfig
public import SwiftSyntax
import SwiftSyntaxBuilder
#else
import SwiftDiagnostics
import SwiftIfConfig
import SwiftSyntax
import SwiftSyntaxBuilder
#endif
  #if compiler(>=6.0)
  #else
  #endif
