import SwiftSyntax
import SwiftSyntaxMacros
import SwiftSyntaxBuilder
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Algorithms
