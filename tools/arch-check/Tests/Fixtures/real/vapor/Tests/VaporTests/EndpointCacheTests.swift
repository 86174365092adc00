#if HTTPClient
import VaporTesting
import Testing
import Vapor
import NIOCore
import RoutingKit
#endif
