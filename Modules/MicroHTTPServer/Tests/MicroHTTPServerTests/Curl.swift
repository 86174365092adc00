import Foundation
import ShareKitSystemTesting

/// What `curl` got back: status, header fields (of the final response, names
/// lowercased) and body.
struct CurlResponse {
    /// The status code; 0 when curl got no response.
    let status: Int
    /// The header lines of the last response (after any `100 Continue`).
    let headers: [(name: String, value: String)]
    /// The body bytes.
    let body: [UInt8]
    /// curl's exit status and standard error, for failure messages.
    let exitStatus: Int32
    let stderr: String

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// Every value of a header field.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name == name.lowercased() }.map(\.value)
    }

    /// The first value of a header field.
    func header(_ name: String) -> String? { values(name).first }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }
}

/// Runs the `curl` program against a test server: a real HTTP client over
/// loopback, in its own process.
enum Curl {
    /// Makes one request.
    /// - Parameters:
    ///   - url: the URL.
    ///   - arguments: more curl arguments (`-X PUT`, `-H …`, `--data-binary …`).
    /// - Returns: the response.
    static func request(_ url: String, _ arguments: [String] = []) throws -> CurlResponse {
        let directory = try TemporaryDirectory(prefix: "httpd-curl")
        defer { directory.remove() }
        let headerFile = directory.file("headers")
        let bodyFile = directory.file("body")
        let result = try runProcess(
            "/usr/bin/curl",
            ["-sS", "--max-time", "120", "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}"] + arguments + [url])
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        // Several blocks when a `100 Continue` came first: keep the last.
        let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        var headers: [(name: String, value: String)] = []
        for line in (blocks.last ?? "").components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    line[..<colon].lowercased(),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map { [UInt8]($0) } ?? []
        return CurlResponse(
            status: Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, headers: headers,
            body: body, exitStatus: result.status, stderr: result.stderr)
    }

    /// Runs curl with the given arguments only and returns its standard output.
    static func raw(_ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/curl", ["-sS", "--max-time", "120"] + arguments)
    }
}
