import Foundation
import Glibc
import ShareKitSystemTesting

/// A stand-in for `share-daemon`'s control socket: it listens where the
/// daemon would, records each request line and answers it with bytes of the
/// test's choosing, so `share status` can be tested against answers the real
/// daemon never writes (another user's process listening there, a daemon of
/// the previous version).
final class FakeDaemon: @unchecked Sendable {
    private let fd: Int32
    private let path: String
    private let lock = NSLock()
    private var lines: [String] = []
    private let done = DispatchSemaphore(value: 0)

    /// Listens on `path` and answers every request with the same text.
    convenience init(path: String, answer: String) throws {
        try self.init(path: path) { _ in Array(answer.utf8) }
    }

    /// Listens on `path` (its folder is made 0700) in a thread of its own.
    /// - Parameter answer: the bytes written for a request line (without its newline).
    init(path: String, answer: @escaping @Sendable (String) -> [UInt8]) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw FixtureError("cannot listen on \(path) (errno \(errno))")
        }
        let thread = Thread { [self] in serve(answer: answer) }
        thread.start()
    }

    /// The request lines received so far.
    var requests: [String] { lock.withLock { lines } }

    private func serve(answer: @Sendable (String) -> [UInt8]) {
        defer { done.signal() }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return  // stop() shut the socket down
            }
            var request: [UInt8] = []
            var byte: UInt8 = 0
            while read(client, &byte, 1) == 1, byte != UInt8(ascii: "\n") { request.append(byte) }
            let line = String(decoding: request, as: UTF8.self)
            lock.withLock { lines.append(line) }
            // A reader that stops early (an answer over its limit) must not kill the test with SIGPIPE.
            _ = answer(line).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        }
    }

    /// Stops listening and removes the socket file.
    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        done.wait()
        close(fd)
        unlink(path)
    }
}
