#if compiler(>=6)
public import SwiftDiagnostics
public import SwiftIfConfig
internal import SwiftOperators
public import SwiftSyntax
public import SwiftSyntaxMacros
#else
import SwiftDiagnostics
import SwiftIfConfig
import SwiftOperators
import SwiftSyntax
import SwiftSyntaxMacros
#endif
    #if RESILIENT_LIBRARIES
    #endif
    #if RESILIENT_LIBRARIES
    #endif
