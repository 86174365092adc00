public import SwiftSyntax
public import SwiftSyntaxMacros
