#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import NIOCore
public import HTTPTypes
import NIOFoundationEssentialsCompat
            #if canImport(Darwin)
            #else
            #endif
