public import RoutingKit
public import HTTPTypes
