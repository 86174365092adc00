#if compiler(>=6)
public import SwiftSyntax
import SwiftBasicFormat
#else
import SwiftSyntax
import SwiftBasicFormat
#endif
