#if MacroRouting
import Testing
#if canImport(VaporMacrosPlugin)
import SwiftSyntaxMacrosGenericTestSupport
#endif
#endif
