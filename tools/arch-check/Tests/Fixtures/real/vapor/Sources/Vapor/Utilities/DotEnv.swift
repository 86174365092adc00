#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#else
import Darwin
#endif
import Logging
import NIOCore
import NIOPosix
import _NIOFileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
