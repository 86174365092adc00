#if canImport(Testing)
import Testing
import SwiftSyntaxMacrosTestSupport
#endif
