public import RoutingKit
