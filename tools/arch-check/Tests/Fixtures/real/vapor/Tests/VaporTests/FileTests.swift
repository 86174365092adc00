import Vapor
import NIOCore
import HTTPTypes
import _NIOFileSystem
import Crypto
import Vapor
import Testing
import VaporTesting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RoutingKit
import _NIOFileSystemFoundationCompat
