import NIOCore
import NIOPosix
import Logging
import _NIOFileSystem
