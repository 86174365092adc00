import NIOCore
import Testing
import VaporTesting
import Vapor
import HTTPTypes
import RoutingKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
    #if WebSockets
    #endif
