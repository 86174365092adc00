#if WebSockets
import VaporTesting
import Vapor
import Testing
import NIOCore
import NIOPosix
import NIOConcurrencyHelpers
import RoutingKit
#endif
