public import Glibc
import SharedState

/// Where `share-daemon` listens for local requests (`share status`, the
/// wake-up after `share send --queue`), and the client side of the wake-up.
///
/// The socket lives in the runtime directory: `SHAREKIT_RUNTIME_DIR` when
/// set; else, for a container chosen with `SHAREKIT_CONTAINER_DIR`, its
/// `run` folder (so two app groups on one machine never share a daemon);
/// else `$XDG_RUNTIME_DIR/sharekit`; else the default container's `run` folder.
public enum DaemonControl {
    /// The socket's file name.
    public static let socketName = "daemon.sock"

    /// The runtime directory for an environment and container.
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - containerRoot: the shared container's root path.
    public static func runtimeDirectory(environment: [String: String], containerRoot: String) -> String {
        if let dir = environment["SHAREKIT_RUNTIME_DIR"], !dir.isEmpty { return dir }
        if environment["SHAREKIT_CONTAINER_DIR"]?.isEmpty == false { return containerRoot + "/run" }
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty { return dir + "/sharekit" }
        return containerRoot + "/run"
    }

    /// The control socket's path for an assembly.
    public static func socketPath(of assembly: ClientAssembly) -> String {
        runtimeDirectory(environment: assembly.environment, containerRoot: assembly.container.rootPath) + "/"
            + socketName
    }

    /// Sends one request line to the daemon and returns its answer (up to
    /// the daemon closing the connection), or nil when no daemon listens.
    /// - Parameters:
    ///   - line: the request, e.g. `wake` or `status`.
    ///   - path: the socket's path.
    ///   - timeoutMilliseconds: how long to wait for the answer.
    public static func request(_ line: String, path: String, timeoutMilliseconds: Int32 = 2000) -> String? {
        guard let fd = connect(to: path) else { return nil }
        defer { close(fd) }
        let request = Array((line + "\n").utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeoutMilliseconds) == 1 else { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            answer += buffer[0..<n]
            if answer.count > 1 << 20 { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// The address of a Unix socket path, or nil when the path is too long for one.
    public static func address(of path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// A stream socket connected to `path` (close-on-exec), or nil when nobody listens there.
    public static func connect(to path: String) -> Int32? {
        guard var address = address(of: path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether a daemon listens on `path` now.
    public static func isListening(_ path: String) -> Bool {
        guard let fd = connect(to: path) else { return false }
        close(fd)
        return true
    }

    /// Wakes the daemon's inbox takeover at once (best effort: without a
    /// running daemon the entry waits for its next start or pass).
    /// - Parameter assembly: the client assembly (which container, which environment).
    public static func wake(_ assembly: ClientAssembly) {
        _ = request("wake", path: socketPath(of: assembly), timeoutMilliseconds: 500)
    }
}
