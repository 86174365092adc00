#if compiler(>=6)
public import SwiftDiagnostics
internal import SwiftParser
internal import SwiftSyntax
#else
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
#endif
