import Foundation
import ShareKitSystemTesting

/// A loopback port that accepts connections and never answers (the kernel
/// completes the handshake from the listen backlog; nobody reads): a server
/// that went silent, for timeouts and deadlines.
public final class SilentServer: @unchecked Sendable {
    /// The listening socket (a test may accept from it to answer by hand).
    public let fd: Int32
    /// The port on 127.0.0.1.
    public let port: UInt16

    /// Listens on 127.0.0.1 on a free port.
    /// - Throws: ``ChildProcessError`` when the socket cannot listen.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw ChildProcessError("cannot listen on loopback (errno \(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:PORT`.
    public var origin: String { "http://127.0.0.1:\(port)" }

    /// Closes the socket.
    public func stop() { close(fd) }
}
