#if compiler(>=6)
public import SwiftDiagnostics
#else
import SwiftDiagnostics
#endif
