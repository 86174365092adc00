import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 request over a TCP connection bound to a chosen local
/// address (`127.0.0.2` reaches a server on `127.0.0.1` from another client
/// address on Linux loopback), for the login throttle's per-address rules.
/// URLSession cannot choose the source address.
enum SourceAddressClient {
    /// What came back: the status and the body as text.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// Sends `POST path` with a JSON body and the given extra headers from `source`.
    /// - Parameters:
    ///   - origin: `http://127.0.0.1:PORT`.
    ///   - source: the local IPv4 address to bind.
    /// - Throws: ``ServerProcessError``-like errors naming the failing call.
    static func post(origin: String, path: String, from source: String, json: Data, headers: [String: String]) throws
        -> Answer
    {
        try send(
            "POST", origin: origin, path: path, from: source, body: json, contentType: "application/json",
            headers: headers)
    }

    /// Sends one request from `source` and reads the whole answer: no
    /// redirect followed, no cookie kept (what a test of a browser's pages
    /// needs to see).
    /// - Parameters:
    ///   - method: `GET`, `POST`, ….
    ///   - origin: `http://127.0.0.1:PORT`.
    ///   - source: the local IPv4 address to bind.
    ///   - body: the body (sent with `Content-Length` when not empty or when `contentType` is given).
    ///   - contentType: the body's type.
    /// - Throws: ``ClientError`` naming the failing socket call.
    static func send(
        _ method: String, origin: String, path: String, from source: String = "127.0.0.1", body: Data = Data(),
        contentType: String? = nil, headers: [String: String] = [:]
    ) throws -> Answer {
        let json = body
        guard let url = URL(string: origin), let host = url.host, let port = url.port else {
            throw ClientError("bad origin \(origin)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket: errno \(errno)") }
        defer { close(fd) }
        var local = try address(source, port: 0)
        var remote = try address(host, port: UInt16(port))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw ClientError("bind \(source): errno \(errno)") }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ClientError("connect \(origin): errno \(errno)") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if contentType != nil || !json.isEmpty { head += "Content-Length: \(json.count)\r\n" }
        head += "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = Array(head.utf8) + Array("\r\n".utf8) + Array(json)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw ClientError("write: errno \(errno)") }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw ClientError("no response head: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw ClientError("bad status line: \(lines.first ?? "")")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: fields, body: String(text[split.upperBound...]))
    }

    /// login at `server` from `source`, with a fresh key's proof.
    /// - Throws: ``ClientError`` naming the failing socket call.
    static func login(_ server: ServerProcess, from source: String, _ username: String, _ password: String) throws
        -> Answer
    {
        let client = try TestClient(origin: server.origin)
        let proof = try client.signer.makeProof(
            method: "POST", url: server.origin + "/api/v1/auth/login", accessToken: nil, nonce: nil)
        let body = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        return try post(
            origin: server.origin, path: "/api/v1/auth/login", from: source, json: body, headers: ["DPoP": proof])
    }

    private static func address(_ text: String, port: UInt16) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
            throw ClientError("not an IPv4 address: \(text)")
        }
        return address
    }

    /// A failed socket call.
    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
