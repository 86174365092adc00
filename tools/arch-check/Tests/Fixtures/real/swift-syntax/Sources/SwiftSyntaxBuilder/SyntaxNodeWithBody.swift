#if compiler(>=6)
public import SwiftSyntax
internal import SwiftParser
#else
import SwiftSyntax
import SwiftParser
#endif
