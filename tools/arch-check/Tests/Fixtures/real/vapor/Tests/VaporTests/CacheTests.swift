import Testing
import VaporTesting
import Vapor
import NIOCore
