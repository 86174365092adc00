import Vapor
import NIOCore
import HTTPTypes
import Testing
import VaporTesting
import Foundation
import RoutingKit
