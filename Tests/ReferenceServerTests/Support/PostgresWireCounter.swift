import Foundation
import Glibc
import ShareKitSystemTesting

/// A relay between a PostgreSQL client and a ``TemporaryPostgres``, on a
/// Unix socket of its own, that counts the client's round trips on the wire.
///
/// A round trip is a message after which the client waits for the server:
/// `Sync` (`S`) ends each extended-protocol exchange (`PQexecParams`,
/// `PQexecPrepared`, `PQprepare`, or a whole pipeline), `Query` (`Q`) each
/// simple one (`PQexec`). Counting them on the wire sees what the server
/// process really sends, whatever its code believes it does. Each round
/// trip is kept with the SQL texts it carried (from `Parse`, `Query`, and
/// `Bind` of a statement parsed before), so a test can tell them apart.
/// Bytes are relayed unchanged in both directions; the relay stops with ``stop()``.
final class PostgresWireCounter: @unchecked Sendable {
    /// The directory of the relay's socket (`host=` in a connection string).
    let socketDirectory: TemporaryDirectory
    private let target: String
    private let listener: Int32
    private let lock = NSLock()
    private var trips: [[String]] = []
    private var descriptors: [Int32] = []
    private var stopped = false
    private let accepting = DispatchSemaphore(value: 0)

    /// Starts a relay to `postgres`.
    /// - Parameter postgres: the server behind it.
    /// - Throws: `POSIXError` when the socket cannot be made.
    init(to postgres: TemporaryPostgres) throws {
        socketDirectory = try TemporaryDirectory(prefix: "pg-relay")
        target = postgres.socketDirectory + "/.s.PGSQL.\(postgres.port)"
        listener = try Self.socket(bindingTo: socketDirectory.file(".s.PGSQL.\(postgres.port)"))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Round trips relayed so far, of every connection.
    var roundTrips: Int { lock.withLock { trips.count } }

    /// The SQL texts of each round trip after the first `from`, in order.
    func statements(from: Int) -> [[String]] {
        lock.withLock { Array(trips[min(from, trips.count)...]) }
    }

    /// `uri` (a ``TemporaryPostgres/connectionURI(database:)``) through the relay.
    func relayedURI(_ uri: String, postgres: TemporaryPostgres) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-._~"))
        let encode = { (path: String) in path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path }
        return uri.replacing(
            "host=\(encode(postgres.socketDirectory))", with: "host=\(encode(socketDirectory.path))")
    }

    /// Closes the listening socket and every relayed connection, and removes the directory.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock {
            for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        accepting.wait()
        close(listener)
        socketDirectory.remove()
    }

    private func acceptLoop() {
        defer { accepting.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard let server = try? Self.socket(connectingTo: target) else {
                close(client)
                continue
            }
            let admitted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                descriptors += [client, server]
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                return
            }
            Thread.detachNewThread { [self] in relay(from: client, to: server, counting: true) }
            Thread.detachNewThread { [self] in relay(from: server, to: client, counting: false) }
        }
    }

    /// Copies bytes one way until either side closes; counts the client's
    /// `S` and `Q` messages when `counting`.
    private func relay(from source: Int32, to destination: Int32, counting: Bool) {
        var parser = FrontendMessages()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            if counting {
                let found = parser.feed(buffer[0..<read])
                if !found.isEmpty { lock.withLock { trips += found } }
            }
            var sent = 0
            while sent < read {
                let wrote = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress! + sent, read - sent, Int32(MSG_NOSIGNAL))
                }
                guard wrote > 0 else { break }
                sent += wrote
            }
            guard sent == read else { break }
        }
        // The other direction ends too; each side's descriptor is closed once, by its reader.
        shutdown(destination, Int32(SHUT_RDWR))
        lock.withLock {
            // Closed under the lock, so stop() never shuts a number down after it was reused.
            descriptors.removeAll { $0 == source }
            shutdown(source, Int32(SHUT_RDWR))
            close(source)
        }
    }

    /// Splits the client's byte stream into messages: the startup message
    /// (a length, no type), then a type byte and a length each.
    private struct FrontendMessages {
        private var pending: [UInt8] = []
        private var startedUp = false
        /// The texts of the statements parsed on this connection, by name.
        private var parsed: [String: String] = [:]
        /// The texts sent since the last round trip ended.
        private var current: [String] = []

        /// Takes more bytes.
        /// - Returns: the round trips (`S`, `Q`) completed by them, each with its texts.
        mutating func feed(_ bytes: ArraySlice<UInt8>) -> [[String]] {
            pending += bytes
            var found: [[String]] = []
            var offset = 0
            while true {
                let header = startedUp ? 5 : 4
                guard pending.count - offset >= header else { break }
                let lengthStart = offset + (startedUp ? 1 : 0)
                let length = pending[lengthStart..<lengthStart + 4].reduce(0) { $0 << 8 | Int($1) }
                let total = length + (startedUp ? 1 : 0)
                guard length >= 4, pending.count - offset >= total else { break }
                if startedUp {
                    let body = Array(pending[offset + 5..<offset + total])
                    switch pending[offset] {
                    case UInt8(ascii: "P"):
                        let fields = Self.strings(body, count: 2)
                        parsed[fields[0]] = fields[1]
                        current.append(fields[1])
                    case UInt8(ascii: "B"):
                        let fields = Self.strings(body, count: 2)
                        current.append(parsed[fields[1]] ?? "")
                    case UInt8(ascii: "Q"):
                        current.append(Self.strings(body, count: 1)[0])
                        found.append(current)
                        current = []
                    case UInt8(ascii: "S"):
                        found.append(current)
                        current = []
                    default: break
                    }
                }
                startedUp = true
                offset += total
            }
            pending.removeFirst(offset)
            return found
        }

        /// The first `count` NUL-ended strings of a message body.
        private static func strings(_ body: [UInt8], count: Int) -> [String] {
            var result: [String] = []
            var start = 0
            while result.count < count {
                let end = body[start...].firstIndex(of: 0) ?? body.count
                result.append(String(decoding: body[start..<end], as: UTF8.self))
                start = min(end + 1, body.count)
            }
            return result
        }
    }

    private static func socket(bindingTo path: String) throws -> Int32 {
        try socket(path) { descriptor, address, length in
            bind(descriptor, address, length) == 0 && listen(descriptor, 16) == 0
        }
    }

    private static func socket(connectingTo path: String) throws -> Int32 {
        try socket(path) { descriptor, address, length in connect(descriptor, address, length) == 0 }
    }

    /// A new Unix stream socket, bound or connected to `path` by `use`.
    private static func socket(
        _ path: String, _ use: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)))
        }
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                use(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard done else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return descriptor
    }
}
