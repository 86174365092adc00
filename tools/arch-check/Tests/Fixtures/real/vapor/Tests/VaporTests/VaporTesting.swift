import Vapor
import VaporTesting
import Testing
import HTTPTypes
import RoutingKit
