#if compiler(>=6)
public import SwiftSyntax
#else
import SwiftSyntax
#endif
