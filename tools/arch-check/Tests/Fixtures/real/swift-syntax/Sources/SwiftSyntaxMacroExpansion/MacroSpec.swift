#if compiler(>=6)
public import SwiftSyntax
public import SwiftSyntaxMacros
#else
import SwiftSyntax
import SwiftSyntaxMacros
#endif
