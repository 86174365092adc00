public import enum NIO.SocketAddress
