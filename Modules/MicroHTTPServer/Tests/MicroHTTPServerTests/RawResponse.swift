import Foundation
import ShareKitSystemTesting

/// A response read from a ``LoopbackSocket`` to the end of the connection.
struct RawResponse: Sendable {
    /// The status code, 0 when nothing came back.
    let status: Int
    /// The head as text (status line and header lines).
    let head: String
    /// The body as text.
    let text: String

    /// Sends a GET over a fresh connection and reads the answer to the end.
    ///
    /// Requests that block in the handler use this rather than a `curl`
    /// child process: Foundation's `Process` notices a child's exit through
    /// a descriptor that children started meanwhile inherit, so a child that
    /// stays alive until the test proceeds can hide the exit of the others.
    /// - Parameters:
    ///   - port: the server's port.
    ///   - path: the request target.
    ///   - keepAlive: leave out `Connection: close`, to see whether the
    ///     server closes the connection by itself.
    static func get(port: Int, _ path: String, keepAlive: Bool = false) -> RawResponse {
        let connection = keepAlive ? "" : "Connection: close\r\n"
        guard let socket = try? LoopbackSocket(port: port),
            (try? socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(connection)\r\n")) != nil
        else { return RawResponse(status: 0, head: "", text: "") }
        let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return RawResponse(status: status, head: head, text: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Whether the head has a header line, compared without case.
    func hasHeader(_ name: String, _ value: String) -> Bool {
        head.lowercased().components(separatedBy: "\r\n").contains("\(name.lowercased()): \(value.lowercased())")
    }
}
