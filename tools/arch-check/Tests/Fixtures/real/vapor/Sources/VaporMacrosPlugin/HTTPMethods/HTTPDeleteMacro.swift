public import SwiftSyntax
public import SwiftSyntaxMacros
import HTTPTypes
