import Vapor
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationEssentialsCompat
import Logging
import NIOEmbedded
import Testing
import VaporTesting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsyncHTTPClient
import HTTPTypes
import RoutingKit
import InMemoryLogging
    #if HTTPClient
    #endif
