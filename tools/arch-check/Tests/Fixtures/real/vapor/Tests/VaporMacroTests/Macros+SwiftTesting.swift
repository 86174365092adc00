#if MacroRouting
import Testing
import SwiftSyntaxMacrosGenericTestSupport
import SwiftSyntaxMacroExpansion
#if canImport(VaporMacrosPlugin)
import VaporMacrosPlugin
#endif
#endif
