#if compiler(>=6)
internal import SwiftDiagnostics
internal import SwiftParserDiagnostics
public import SwiftSyntax
#else
import SwiftDiagnostics
import SwiftParserDiagnostics
import SwiftSyntax
#endif
