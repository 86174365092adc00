import RoutingKit
import HTTPTypes
