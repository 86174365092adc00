public import Metrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOConcurrencyHelpers
public import MetricsTestKit
public import Testing
