import Vapor
import NIOCore
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VaporTesting
import HTTPTypes
import RoutingKit
