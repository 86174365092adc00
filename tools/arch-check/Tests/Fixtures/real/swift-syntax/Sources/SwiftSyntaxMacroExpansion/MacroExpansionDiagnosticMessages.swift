#if compiler(>=6)
public import SwiftSyntaxMacros
#else
import SwiftSyntaxMacros
#endif
