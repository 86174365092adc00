public import SwiftSyntaxMacros
public import SwiftSyntax
import HTTPTypes
