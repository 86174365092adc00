import NIOCore
import HTTPTypes
import Vapor
import Testing
import VaporTesting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RoutingKit
    #if Multipart
    #endif
