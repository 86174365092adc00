import NIOCore
