#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import NIOCore
public import _NIOFileSystem
import HTTPTypes
import Logging
import Crypto
import NIOConcurrencyHelpers
import _NIOFileSystemFoundationCompat
import NIOHTTP1
