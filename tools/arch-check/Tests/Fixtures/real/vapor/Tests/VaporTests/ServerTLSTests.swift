@testable import Vapor
import VaporTesting
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Testing
import Foundation
import X509
import SwiftASN1
import RoutingKit
