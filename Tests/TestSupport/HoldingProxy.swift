import Foundation
import ShareKitSystemTesting
import Synchronization

/// An HTTP forward proxy on loopback that the programs under test reach
/// through `http_proxy`, as they would a proxy on the way to a real server.
/// It passes each request to the loopback server it names and the answer
/// back, except for the requests its rules pick:
///
/// - ``Action/hold``: the request reaches the server, which does its work
///   (stores the message) and answers; the proxy keeps the answer back
///   until ``release()``, so the client does not know what happened. A test
///   waits with ``waitUntilHeld(limit:)`` (not a sleep) and then acts: a
///   Ctrl-C, a kill, or the release. ``releaseOne()`` lets one answer go
///   and holds the rest: an upload then advances a part at a time, as
///   slowly as the test wants to look at it.
/// - ``Action/answer(status:body:)``: the proxy answers itself and the
///   server never sees the request (a `503` after the uploads succeeded).
///
/// One request per connection (`Connection: close` both ways), each on a
/// thread of its own, so a held answer does not stop other requests. Only
/// `Content-Length` bodies are passed on; a chunked request is answered
/// `501`, which a test notices.
public final class HoldingProxy: @unchecked Sendable {
    /// What the proxy does with a request a rule picks.
    public enum Action: Sendable {
        /// Forward it, and keep the server's answer back until ``HoldingProxy/release()``.
        case hold
        /// Answer it without forwarding.
        case answer(status: Int, body: String)
    }

    /// A rule: a method, a path prefix and the action.
    public typealias Rule = PathRule<Action>

    private struct State {
        var rules: [Rule]
        var held: [Int] = []
        var released = false
        /// Held answers ``releaseOne()`` let go that no held request took yet.
        var passes = 0
        var stopped = false
        var seen: [String] = []
        var connections: Set<Int32> = []
    }

    private let listener: SilentServer
    private let state: Mutex<State>
    private let changed = NSCondition()

    /// Listens on 127.0.0.1 on a free port.
    /// - Parameter rules: the rules, first match wins; other requests pass.
    /// - Throws: ``ChildProcessError`` when the socket cannot listen.
    public init(_ rules: [Rule]) throws {
        listener = try SilentServer()
        state = Mutex(State(rules: rules))
        let fd = listener.fd
        let thread = Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                let open = state.withLock { state -> Bool in
                    if !state.stopped { state.connections.insert(client) }
                    return !state.stopped
                }
                guard open else {
                    close(client)
                    return
                }
                let worker = Thread { [self] in
                    serve(client)
                    state.withLock { _ = $0.connections.remove(client) }
                    close(client)
                }
                worker.start()
            }
        }
        thread.start()
    }

    /// `http://127.0.0.1:PORT`, for `http_proxy`.
    public var origin: String { listener.origin }

    /// `METHOD /path` of every request seen so far, in order.
    public var requests: [String] { state.withLock { $0.seen } }

    /// Waits until the server's answer to a held request is in the proxy's
    /// hands (the server has done the work), or `limit` passed.
    /// - Parameter limit: the longest wait.
    /// - Returns: the held answer's status, or nil when none came in time.
    public func waitUntilHeld(limit: Duration = .seconds(60)) -> Int? {
        waitUntilHeld(count: 1, limit: limit)
    }

    /// Waits until `count` answers were held in all (those released included), or `limit` passed.
    /// - Parameters:
    ///   - count: how many held answers to wait for.
    ///   - limit: the longest wait.
    /// - Returns: the first held answer's status, or nil when fewer came in time.
    public func waitUntilHeld(count: Int, limit: Duration = .seconds(60)) -> Int? {
        let deadline = Date().addingTimeInterval(
            Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
        changed.lock()
        defer { changed.unlock() }
        while true {
            if let status = state.withLock({ $0.held.count >= count ? $0.held.first : nil }) { return status }
            if !changed.wait(until: deadline) {
                return state.withLock { $0.held.count >= count ? $0.held.first : nil }
            }
        }
    }

    /// Lets one held answer go (or the next one held, when none is held now);
    /// later matches of a hold rule are held as before.
    public func releaseOne() {
        state.withLock { $0.passes += 1 }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Lets every held answer go to its client; later matches of a hold rule pass at once.
    public func release() {
        state.withLock { $0.released = true }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Stops listening and drops every connection; held answers are never sent.
    public func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.stopped = true
            return state.connections
        }
        changed.lock()
        changed.broadcast()
        changed.unlock()
        for client in open { shutdown(client, Int32(SHUT_RDWR)) }
        shutdown(listener.fd, Int32(SHUT_RDWR))
        listener.stop()
    }

    // MARK: - One connection

    private func serve(_ client: Int32) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.readRequest(client) else { return }
        state.withLock { $0.seen.append("\(request.method) \(request.path)") }
        let action = state.withLock { PathRule.action(in: $0.rules, method: request.method, path: request.path) }
        if case .answer(let status, let body)? = action {
            SocketBytes.write(client, Self.answer(status, body))
            return
        }
        guard request.chunked == false else {
            SocketBytes.write(
                client, Self.answer(501, #"{"code":"proxy_chunked","title":"chunked bodies are not passed"}"#))
            return
        }
        guard let answer = Self.forward(request) else {
            SocketBytes.write(
                client, Self.answer(502, #"{"code":"proxy_upstream","title":"the server did not answer"}"#))
            return
        }
        if case .hold? = action {
            changed.lock()
            state.withLock { $0.held.append(answer.status) }
            changed.broadcast()
            while !state.withLock({ state in
                if state.released || state.stopped { return true }
                guard state.passes > 0 else { return false }
                state.passes -= 1
                return true
            }) { changed.wait() }
            changed.unlock()
            if state.withLock({ $0.stopped }) { return }
        }
        SocketBytes.write(client, answer.bytes)
    }

    private struct Request {
        var method: String
        var host: String
        var port: UInt16
        var path: String
        var head: [String]
        var body: [UInt8]
        var chunked: Bool
    }

    /// Reads one request in absolute form (`POST http://127.0.0.1:PORT/path HTTP/1.1`),
    /// answering `Expect: 100-continue` itself so the body comes at once.
    private static func readRequest(_ client: Int32) -> Request? {
        guard let (text, rest) = SocketBytes.readHead(client) else { return nil }
        let lines = text.split(separator: "\r\n").map(String.init)
        let first = lines.first?.split(separator: " ").map(String.init) ?? []
        guard first.count == 3, let url = URLComponents(string: first[1]), url.scheme == "http",
            let host = url.host, host == "127.0.0.1" || host == "localhost", let port = url.port
        else { return nil }
        var path = url.percentEncodedPath
        if let query = url.percentEncodedQuery { path += "?" + query }
        let fields = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        let length = fields.first { $0.0 == "content-length" }.flatMap { Int($0.1) } ?? 0
        let chunked = fields.contains { $0.0 == "transfer-encoding" && $0.1.lowercased().contains("chunked") }
        if fields.contains(where: { $0.0 == "expect" && $0.1.lowercased() == "100-continue" }) {
            SocketBytes.write(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        guard let body = SocketBytes.readBody(client, start: rest, length: length) else { return nil }
        let dropped: Set<String> = ["connection", "proxy-connection", "keep-alive", "expect"]
        let head = lines.dropFirst().filter { line in
            guard let colon = line.firstIndex(of: ":") else { return false }
            return !dropped.contains(line[..<colon].lowercased())
        }
        return Request(
            method: first[0], host: host, port: UInt16(port), path: path, head: head, body: body, chunked: chunked)
    }

    /// Sends the request to the server (origin form, `Connection: close`)
    /// and reads its whole answer, with the answer's own `Connection` field
    /// replaced by `close`.
    private static func forward(_ request: Request) -> (status: Int, bytes: [UInt8])? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = request.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let head =
            "\(request.method) \(request.path) HTTP/1.1\r\n" + request.head.map { $0 + "\r\n" }.joined()
            + "Connection: close\r\n\r\n"
        SocketBytes.write(fd, Array(head.utf8) + request.body)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        guard let end = SocketBytes.find([13, 10, 13, 10], in: answer) else { return nil }
        let lines = String(decoding: answer[..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            return nil
        }
        let kept = lines.dropFirst().filter { !$0.lowercased().hasPrefix("connection:") }
        let rewritten = ([lines[0]] + kept + ["Connection: close"]).joined(separator: "\r\n") + "\r\n\r\n"
        return (status, Array(rewritten.utf8) + answer[(end + 4)...])
    }

    private static func answer(_ status: Int, _ body: String) -> [UInt8] {
        Array(
            ("HTTP/1.1 \(status) Proxy\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
    }
}
