public import RoutingKit
public import HTTPTypes
import NIOPosix
import NIOCore
