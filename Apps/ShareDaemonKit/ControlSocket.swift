import ClientAssembly
import Foundation
import Glibc
import SecureFiles

/// The daemon's local control socket (a Unix stream socket, 0600, in a 0700
/// runtime directory): one request line, one answer line, then the daemon
/// closes. The messages are ``DaemonRequest`` and ``DaemonAnswer`` (shared
/// with the client in ClientAssembly): `wake` wakes the inbox takeover
/// (after `share send --queue` or a kept share); `status` answers the
/// status `share status` shows; `retry` makes waiting sends due now.
final class ControlSocket: @unchecked Sendable {
    /// What the daemon does for a request it understood, and its answer.
    typealias Handler = @Sendable (DaemonRequest) -> DaemonAnswer

    let path: String
    private let fd: Int32
    private let handler: Handler
    private let thread: Thread

    /// Binds and listens; a stale socket file of a dead daemon is replaced,
    /// a live daemon's is not (two daemons on one container would both
    /// answer, so the second one is told).
    /// - Throws: `ControlSocketError` when the socket cannot be made.
    init(path: String, handler: @escaping Handler) throws {
        self.path = path
        self.handler = handler
        let directory = (path as NSString).deletingLastPathComponent
        _ = try SecureDirectory.openBase(directory, create: true)
        if DaemonControl.isListening(path) {
            throw ControlSocketError("another share-daemon already listens on \(path)")
        }
        unlink(path)
        guard var address = DaemonControl.address(of: path) else {
            throw ControlSocketError("the socket path is too long: \(path)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError("socket: \(String(cString: strerror(errno)))") }
        // The socket file is created with the umask's bits: make it private first.
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previous)
        guard bound == 0, listen(fd, 16) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlSocketError("cannot listen on \(path): \(why)")
        }
        chmod(path, 0o600)
        self.fd = fd
        let handler = self.handler
        thread = Thread {
            ControlSocket.acceptLoop(fd: fd, handler: handler)
        }
        thread.name = "share-daemon control socket"
        thread.start()
    }

    /// Stops listening and removes the socket file.
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        unlink(path)
    }

    private static func acceptLoop(fd: Int32, handler: Handler) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // shut down
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client, handler: handler)
            Glibc.close(client)
        }
    }

    private static func serve(_ client: Int32, handler: Handler) {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < ReceivedDaemonRequest.maximumLength {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) == 1, read(client, &byte, 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        let received = ReceivedDaemonRequest(parsing: String(decoding: line, as: UTF8.self))
        let reply = received.request.map(handler) ?? .refused("unknown request")
        let answer = Array((reply.line(plainWord: received.isPlainWord) + "\n").utf8)
        _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// The control socket could not be set up.
struct ControlSocketError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
