#if compiler(>=6) && RESILIENT_LIBRARIES
@_implementationOnly private import _SwiftSyntaxCShims
#elseif compiler(>=6) && !RESILIENT_LIBRARIES
private import _SwiftSyntaxCShims
#elseif !compiler(>=6) && RESILIENT_LIBRARIES
@_implementationOnly import _SwiftSyntaxCShims
#elseif !compiler(>=6) && !RESILIENT_LIBRARIES
import _SwiftSyntaxCShims
#endif
#if compiler(>=6)
internal import SwiftIfConfig
public import SwiftSyntaxMacros
#else
import SwiftIfConfig
import SwiftSyntaxMacros
#endif
    #if os(WASI)
    #else
    #endif
#if compiler(>=6) && os(WASI)
#elseif os(WASI)
#endif
