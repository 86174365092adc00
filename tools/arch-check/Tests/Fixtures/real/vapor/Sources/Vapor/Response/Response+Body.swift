#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import NIOCore
import NIOFoundationEssentialsCompat
import NIOConcurrencyHelpers
import HTTPTypes
import NIOPosix
