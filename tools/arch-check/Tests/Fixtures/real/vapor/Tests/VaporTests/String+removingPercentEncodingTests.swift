#if canImport(FoundationEssentials)
import FoundationEssentials
@testable import Vapor
import Testing
#endif
