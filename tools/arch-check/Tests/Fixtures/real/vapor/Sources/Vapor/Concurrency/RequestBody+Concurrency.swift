public import NIOCore
import NIOConcurrencyHelpers
import NIOPosix
