#if WebSockets
import NIOPosix
import NIOCore
import HTTPTypes
import RoutingKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOPosix
import NIOHTTPTypesHTTP1
#endif
