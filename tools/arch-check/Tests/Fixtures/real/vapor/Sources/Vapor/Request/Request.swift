#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import NIOCore
import NIOHTTP1
import Logging
public import RoutingKit
import NIOConcurrencyHelpers
public import HTTPTypes
import NIOPosix
import ServiceContextModule
public import X509
