public import NIOCore
import NIOPosix
import NIOConcurrencyHelpers
import HTTPTypes
