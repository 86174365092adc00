#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vapor
import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOConcurrencyHelpers
import Atomics
import Testing
import VaporTesting
import HTTPTypes
