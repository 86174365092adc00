public import NIOCore
