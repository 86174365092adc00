@testable import Vapor
import VaporTesting
import ServiceLifecycle
import Testing
