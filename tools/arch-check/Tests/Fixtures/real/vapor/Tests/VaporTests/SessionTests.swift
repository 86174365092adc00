import VaporTesting
import Testing
import Vapor
import NIOCore
import HTTPTypes
import RoutingKit
