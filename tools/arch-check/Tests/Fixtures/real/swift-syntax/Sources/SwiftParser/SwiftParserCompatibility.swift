#if compiler(>=6)
internal import SwiftSyntax
#else
import SwiftSyntax
#endif
