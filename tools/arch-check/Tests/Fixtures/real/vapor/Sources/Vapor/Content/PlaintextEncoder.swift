#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import NIOCore
public import HTTPTypes
