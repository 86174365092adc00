#if MacroRouting
import SwiftSyntaxMacrosGenericTestSupport
import Testing
#if canImport(VaporMacrosPlugin)
#endif
#endif
