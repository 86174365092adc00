import Vapor
import NIOCore
import VaporTesting
import Testing
import HTTPTypes
import RoutingKit
