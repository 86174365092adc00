import Foundation
import ShareKitSystemTesting
import Synchronization

/// A slow-head attack: many connections that each send a request head one
/// byte at a time, a byte every `interval`, and never finish it. Connections
/// the server closes are kept (their sends fail quietly) so the attack's
/// size stays what the test asked for.
final class Trickle: Sendable {
    private let sockets: Mutex<[LoopbackSocket]>
    private let sent = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)
    private static let head = Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)

    /// Opens the connections and sends each one's first byte.
    /// - Parameters:
    ///   - port: the server's port.
    ///   - count: the number of connections.
    ///   - sources: the local addresses to connect from, used in turn.
    ///   - interval: the time between two bytes of one connection.
    init(port: Int, count: Int, sources: [String] = ["127.0.0.1"], interval: Duration = .seconds(20)) throws {
        var opened: [LoopbackSocket] = []
        for index in 0..<count {
            let socket = try LoopbackSocket(port: port, source: sources[index % sources.count], receiveTimeout: 100)
            try? socket.send([Self.head[0]])
            opened.append(socket)
        }
        sockets = Mutex(opened)
        sent.store(1, ordering: .relaxed)
        let seconds = Double(interval.components.seconds)
        Thread { [self] in
            while stopped.wait(timeout: .now() + seconds) == .timedOut { sendNextByte() }
        }.start()
    }

    private func sendNextByte() {
        let index = sent.add(1, ordering: .relaxed).oldValue
        let byte = Self.head[index % Self.head.count]
        sockets.withLock { sockets in
            for socket in sockets { try? socket.send([byte]) }
        }
    }

    /// Stops the attack and closes every connection.
    func stop() {
        stopped.signal()
        sockets.withLock { sockets in
            for socket in sockets { socket.close() }
            sockets = []
        }
    }
}

/// One request over a fresh connection, written byte for byte, and the
/// answer read to the end of the connection, with the time it took.
struct RawExchange: Sendable {
    /// The status code, 0 when nothing came back.
    let status: Int
    /// The head lines after the status line, lowercased names.
    let headers: [String: String]
    /// The body.
    let body: [UInt8]
    /// From the first byte sent to the end of the answer.
    let elapsed: Duration

    /// Sends `request` and reads the answer until the server closes the
    /// connection or `timeout` passes.
    /// - Parameters:
    ///   - port: the server's port.
    ///   - request: the exact bytes.
    ///   - source: the local address to connect from.
    ///   - timeout: the longest wait for the answer, in milliseconds.
    static func send(port: Int, _ request: String, source: String? = nil, timeout: Int = 2000) -> RawExchange {
        let start = ContinuousClock.now
        guard let socket = try? LoopbackSocket(port: port, source: source, receiveTimeout: timeout) else {
            return RawExchange(status: 0, headers: [:], body: [], elapsed: start.duration(to: .now))
        }
        try? socket.send(request)
        let answer = socket.receiveAll()
        let elapsed = start.duration(to: .now)
        return parse(answer, elapsed: elapsed)
            ?? RawExchange(status: 0, headers: [:], body: answer, elapsed: elapsed)
    }

    /// An answer read off a socket, split into status, header fields and
    /// body; nil when it has no complete head.
    /// - Parameters:
    ///   - answer: the bytes.
    ///   - elapsed: the time the exchange took.
    static func parse(_ answer: [UInt8], elapsed: Duration) -> RawExchange? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return RawExchange(status: status, headers: headers, body: Array(answer[(end + 4)...]), elapsed: elapsed)
    }

    /// The body as a problem document, when it is one
    /// (`application/problem+json` with `type`, `title`, `status`, `code`).
    var problem: [String: Any]? {
        guard headers["content-type"] == "application/problem+json",
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            object["type"] is String, object["title"] is String, object["code"] is String,
            object["status"] as? Int == status
        else { return nil }
        return object
    }
}
