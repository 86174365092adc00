import CShareKitMicroHTTPDShim
import Glibc
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// A numeric IPv4 or IPv6 address and port, in the `sockaddr` form the
/// engine binds to. Only numeric hosts are accepted (no DNS lookup at start:
/// a server must bind where it was told, not where a resolver points).
struct SocketAddress: Sendable {
    /// The `sockaddr_in` or `sockaddr_in6` bytes.
    let bytes: [UInt8]
    /// Whether it is IPv6.
    let isIPv6: Bool

    /// Why a listening socket cannot be bound here, in a person's words
    /// that follow the address (`is in use: ...`), or nil when it can: bound and closed again at once, the way
    /// libmicrohttpd binds (`SO_REUSEADDR`), to explain a start that failed.
    func bindProblem() -> String? {
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = bytes.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound != 0 else { return nil }
        switch errno {
        case EADDRINUSE: return "is in use: another program already listens there"
        case EADDRNOTAVAIL: return "is not an address of this machine"
        case EACCES: return "needs privileges this process does not have (a port below 1024)"
        default: return "cannot be listened on (\(String(cString: strerror(errno))))"
        }
    }

    /// Parses a host and port.
    /// - Parameters:
    ///   - host: `127.0.0.1`, `::1`, `[::1]`, `0.0.0.0`, or `localhost` (IPv4 loopback).
    ///   - port: 0...65535.
    /// - Throws: ``HTTPServerError/invalidAddress(_:)``.
    init(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw .invalidAddress("port \(port) is outside 0...65535") }
        var name = host == "localhost" ? "127.0.0.1" : host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            isIPv6 = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            isIPv6 = true
            return
        }
        throw .invalidAddress("'\(host)' is not a numeric IPv4 or IPv6 address")
    }

    /// The text form of a peer's address, as the kernel reported it.
    /// - Parameter address: a `sockaddr_in` or `sockaddr_in6`.
    /// - Returns: the host and port, nil for other families.
    static func remote(_ address: UnsafePointer<sockaddr>) -> HTTPRemoteAddress? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var addr = v4.pointee.sin_addr
                guard inet_ntop(AF_INET, &addr, &text, socklen_t(text.count)) != nil else { return nil }
                return HTTPRemoteAddress(host: Self.string(text), port: Int(UInt16(bigEndian: v4.pointee.sin_port)))
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var addr = v6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count)) != nil else { return nil }
                return HTTPRemoteAddress(host: Self.string(text), port: Int(UInt16(bigEndian: v6.pointee.sin6_port)))
            }
        default:
            return nil
        }
    }

    private static func string(_ text: [CChar]) -> String {
        text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
