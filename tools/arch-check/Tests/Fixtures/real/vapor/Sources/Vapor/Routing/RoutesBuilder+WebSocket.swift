#if WebSockets
import RoutingKit
import NIOCore
import HTTPTypes
import NIOPosix
#endif
