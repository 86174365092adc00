import Foundation
import ShareKitSystemTesting

/// A plain TCP connection to 127.0.0.1, for requests no HTTP client would
/// send (malformed request lines, bodies cut off midway). Reads time out
/// after 20 seconds, so a test fails rather than hangs.
final class LoopbackSocket {
    private var fd: Int32

    /// Connects.
    /// - Parameters:
    ///   - port: the server's port.
    ///   - source: the local address to connect from (any of 127.0.0.0/8
    ///     works on Linux, so a test can play many clients); nil for 127.0.0.1.
    ///   - receiveTimeout: how long a read waits, in milliseconds.
    ///   - receiveBuffer: the kernel's receive buffer in bytes, nil for the
    ///     default; a small one makes a client that does not read take
    ///     almost nothing of an answer.
    /// - Throws: ``SocketFailure`` with the `errno` when the connection fails.
    init(port: Int, source: String? = nil, receiveTimeout: Int = 20_000, receiveBuffer: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailure(errno: errno) }
        if var size = receiveBuffer.map(Int32.init) {
            // Before connect, so the window the server sees is small from the start.
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: receiveTimeout / 1000, tv_usec: (receiveTimeout % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close()
                throw SocketFailure(errno: code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            // deinit runs for a throwing initializer too: mark the
            // descriptor closed so it is not closed twice (the number may
            // belong to another thread's socket by then).
            close()
            throw SocketFailure(errno: code)
        }
    }

    deinit { close() }

    /// Sends all bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw SocketFailure(errno: errno) }
            offset += sent
        }
    }

    /// Sends text.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads until the peer closes the connection (or the read times out).
    func receiveAll() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            out.append(contentsOf: buffer[0..<count])
        }
        return out
    }

    /// Reads until a complete response head (`\r\n\r\n`) arrived.
    func receiveHead() -> String {
        var out: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            out.append(byte)
            if out.count >= 4, out.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Closes the connection.
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// The outcome of a connection attempt: 0 when it connected, else the `errno`.
    static func connectError(port: Int) -> Int32 {
        do {
            _ = try LoopbackSocket(port: port)
            return 0
        } catch let failure as SocketFailure {
            return failure.errno
        } catch {
            return -1
        }
    }
}
