import Foundation
import Vapor
import NIOCore
import HTTPTypes
import NIOConcurrencyHelpers
import _NIOFileSystem
import RoutingKit
import Logging
import VaporMacros
    #if !canImport(FoundationEssentials)
    #endif
    #if MacroRouting
    #endif
#if MacroRouting
#endif
