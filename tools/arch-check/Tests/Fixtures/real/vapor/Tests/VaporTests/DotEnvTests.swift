@testable import Vapor
import NIOPosix
import NIOCore
import Testing
import VaporTesting
