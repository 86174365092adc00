#if compiler(>=6)
internal import SwiftDiagnostics
internal import SwiftSyntax
#else
import SwiftDiagnostics
import SwiftSyntax
#endif
    #if RESILIENT_LIBRARIES
    #endif
          #if RESILIENT_LIBRARIES
          #endif
