import Vapor
import NIOCore
import Algorithms
import Testing
import Foundation
        #if canImport(Darwin)
        #else
        #endif
