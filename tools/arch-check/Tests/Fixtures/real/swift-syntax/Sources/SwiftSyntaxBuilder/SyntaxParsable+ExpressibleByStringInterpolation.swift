#if compiler(>=6)
internal import SwiftDiagnostics
public import SwiftParser
internal import SwiftParserDiagnostics
internal import SwiftSyntax
#if canImport(os) && !SWIFTSYNTAX_NO_OSLOG_DEPENDENCY
private import os
#endif
#else
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
#if canImport(os) && !SWIFTSYNTAX_NO_OSLOG_DEPENDENCY
import os
#endif
#endif
#if swift(>=6)
#else
#endif
    #if canImport(OSLog) && !SWIFTSYNTAX_NO_OSLOG_DEPENDENCY
    #endif
