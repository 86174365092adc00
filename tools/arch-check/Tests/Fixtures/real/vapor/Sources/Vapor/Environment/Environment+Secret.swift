import NIOCore
import _NIOFileSystem
import NIOPosix
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Algorithms
