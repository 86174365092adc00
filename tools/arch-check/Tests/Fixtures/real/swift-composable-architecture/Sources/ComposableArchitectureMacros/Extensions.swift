import SwiftDiagnostics
import SwiftOperators
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
    #if canImport(SwiftSyntax600)
    #else
    #endif
