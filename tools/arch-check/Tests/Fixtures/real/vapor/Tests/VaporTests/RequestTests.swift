import NIOPosix
import Vapor
import NIOCore
import AsyncHTTPClient
import Atomics
import NIOConcurrencyHelpers
import Testing
import VaporTesting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import RoutingKit
import NIOFoundationEssentialsCompat
import Logging
