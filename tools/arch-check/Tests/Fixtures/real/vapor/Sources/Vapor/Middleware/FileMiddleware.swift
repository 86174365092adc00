#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import NIOCore
import _NIOFileSystem
public import HTTPTypes
    #if !canImport(FoundationEssentials)
    #endif
