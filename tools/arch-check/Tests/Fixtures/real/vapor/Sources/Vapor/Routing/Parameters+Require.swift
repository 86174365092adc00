public import RoutingKit
import HTTPTypes
import Logging
