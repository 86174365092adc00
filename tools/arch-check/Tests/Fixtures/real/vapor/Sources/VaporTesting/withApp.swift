public import Configuration
public import Vapor
import NIOCore
import NIOConcurrencyHelpers
import ServiceLifecycle
@testable import CoreMetrics
@testable import Instrumentation
public import Logging
