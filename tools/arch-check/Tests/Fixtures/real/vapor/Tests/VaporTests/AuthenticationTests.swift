import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor
import VaporTesting
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import RoutingKit
