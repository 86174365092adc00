import HTTPTypes
import Vapor
import Metrics
@testable import CoreMetrics
import MetricsTestKit
import NIOCore
import Tracing
import Testing
import VaporTesting
import RegexBuilder
import RoutingKit
import NIOConcurrencyHelpers
import InMemoryTracing
import Foundation
    #if !canImport(FoundationEssentials)
    #endif
