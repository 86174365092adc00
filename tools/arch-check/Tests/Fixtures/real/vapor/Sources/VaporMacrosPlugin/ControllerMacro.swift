public import SwiftSyntax
public import SwiftSyntaxMacros
import SwiftSyntaxBuilder
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Algorithms
