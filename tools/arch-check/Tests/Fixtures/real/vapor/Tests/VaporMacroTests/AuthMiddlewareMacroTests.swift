#if MacroRouting
import Testing
import SwiftSyntaxMacrosGenericTestSupport
#if canImport(VaporMacrosPlugin)
#endif
#endif
