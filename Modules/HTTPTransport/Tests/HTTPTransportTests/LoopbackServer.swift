import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1, port 0, that records each request and
/// answers it from a script, one connection per request (`Connection:
/// close`). Small on purpose: this package may not depend on the toolkit's
/// server module, and the client is what is tested.
final class LoopbackServer: Sendable {
    /// One request as the server read it.
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: [UInt8]
    }

    /// What the server does with a request.
    enum Answer: Sendable {
        /// Answers with this status, these header fields and this body.
        case respond(status: Int, headers: [String: String], body: [UInt8])
        /// Closes the connection without a word.
        case hangUp
    }

    let port: Int
    private let listener: Int32
    private let state = Mutex<(requests: [Request], script: [Answer])>(([], []))
    private let done = DispatchSemaphore(value: 0)

    init(_ script: [Answer]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock { $0.script = script }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var origin: String { "http://127.0.0.1:\(port)" }
    var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting and waits for the serving thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            buffer += chunk[0..<count]
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
            if headerEnd == nil, !fill() { return }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let start = head[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            _ = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes {
                write(connection, $0.baseAddress, $0.count)
            }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < headerEnd! + 4 + length { if !fill() { break } }
        let body = Array(buffer[(headerEnd! + 4)..<min(buffer.count, headerEnd! + 4 + length)])
        let answer = state.withLock { state -> Answer in
            state.requests.append(
                Request(method: String(start[0]), target: String(start[1]), headers: headers, body: body))
            return state.script.isEmpty ? .respond(status: 500, headers: [:], body: []) : state.script.removeFirst()
        }
        guard case .respond(let status, let extra, let content) = answer else { return }
        var text = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(content.count)\r\nConnection: close\r\n"
        for (name, value) in extra { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + content
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
