import Foundation
import ShareKitSystemTesting
import Synchronization

/// A real HTTP server on loopback that answers each route with what a
/// hostile (or broken) server could send: huge and negative numbers, empty
/// ranges, wrong types, oversized and truncated bodies, redirects. The
/// programs under test talk to it over real sockets, exactly as to a server.
///
/// Routes are matched by method and path prefix (the query is ignored),
/// first match wins; anything else gets `404` with a problem document. One
/// thread accepts and answers connections one at a time (`Connection:
/// close`), which is all a test's client needs.
public final class HostileServer: @unchecked Sendable {
    /// How the body of an answer goes out.
    public enum Delivery: Sendable {
        /// The whole body with its `Content-Length`.
        case whole
        /// A `Content-Length` larger than the body, then the connection closes.
        case truncated
    }

    /// One canned answer.
    public struct Answer: Sendable {
        /// The status.
        public var status: Int
        /// Extra header fields.
        public var headers: [(String, String)]
        /// The body.
        public var body: [UInt8]
        /// How the body goes out.
        public var delivery: Delivery

        /// Makes an answer.
        /// - Parameters:
        ///   - status: the status.
        ///   - headers: extra header fields (`Content-Type` is JSON unless given).
        ///   - body: the body text.
        ///   - delivery: whole or truncated.
        public init(_ status: Int, headers: [(String, String)] = [], _ body: String = "", delivery: Delivery = .whole) {
            self.status = status
            self.headers = headers
            self.body = Array(body.utf8)
            self.delivery = delivery
        }

        /// Makes an answer with a body of raw bytes (an 8 MiB one, say).
        /// - Parameters:
        ///   - status: the status.
        ///   - bytes: the body.
        public init(_ status: Int, bytes: [UInt8]) {
            self.status = status
            headers = []
            body = bytes
            delivery = .whole
        }
    }

    /// A route: a method, a path prefix and what to answer.
    public typealias Route = PathRule<Answer>

    /// A token answer with the given lifetimes (as JSON text, so a test can
    /// send numbers no Swift integer holds).
    /// - Parameters:
    ///   - expiresIn: the `expires_in` member's text.
    ///   - refreshExpiresIn: the `refresh_expires_in` member's text.
    /// - Returns: the body.
    public static func tokenBody(expiresIn: String = "600", refreshExpiresIn: String = "86400") -> String {
        """
        {"session_id":"ses_hostile","access_token":"hostile-access","refresh_token":"hostile-refresh",\
        "token_type":"DPoP","expires_in":\(expiresIn),"refresh_expires_in":\(refreshExpiresIn)}
        """
    }

    private let listener: SilentServer
    private let routes: Mutex<[Route]>
    private let seen = Mutex<[String]>([])
    private var thread: Thread?

    /// Listens on 127.0.0.1 on a free port and answers with `routes`.
    /// - Parameter routes: the routes, first match wins.
    /// - Throws: ``ChildProcessError`` when the socket cannot listen.
    public init(_ routes: [Route]) throws {
        listener = try SilentServer()
        self.routes = Mutex(routes)
        let fd = listener.fd
        let thread = Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    return
                }
                serve(client)
            }
        }
        self.thread = thread
        thread.start()
    }

    /// `http://127.0.0.1:PORT`.
    public var origin: String { listener.origin }

    /// `METHOD /path` of every request answered so far, in order.
    public var requests: [String] { seen.withLock { $0 } }

    /// Replaces the routes (a test's next step).
    /// - Parameter routes: the new routes.
    public func answer(_ routes: [Route]) { self.routes.withLock { $0 = routes } }

    /// Stops listening; the accept loop ends.
    public func stop() {
        shutdown(listener.fd, Int32(SHUT_RDWR))
        listener.stop()
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let (head, rest) = SocketBytes.readHead(client) else { return }
        let lines = head.split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return }
        let method = String(requestLine[0])
        let path = String(requestLine[1].split(separator: "?").first ?? "")
        // Read the body so the client's send completes (it is not used).
        let length =
            lines.dropFirst().compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        _ = SocketBytes.readBody(client, start: rest, length: length)
        seen.withLock { $0.append("\(method) \(path)") }
        let answer =
            routes.withLock { PathRule.action(in: $0, method: method, path: path) }
            ?? Answer(404, #"{"type":"about:blank","status":404,"code":"not_found","title":"Not found"}"#)
        var headerText = "HTTP/1.1 \(answer.status) Hostile\r\nConnection: close\r\n"
        if !answer.headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headerText += "Content-Type: application/json\r\n"
        }
        for (name, value) in answer.headers { headerText += "\(name): \(value)\r\n" }
        let declared = answer.delivery == .truncated ? answer.body.count * 2 + 100 : answer.body.count
        headerText += "Content-Length: \(declared)\r\n\r\n"
        SocketBytes.write(client, Array(headerText.utf8) + answer.body)
    }
}
