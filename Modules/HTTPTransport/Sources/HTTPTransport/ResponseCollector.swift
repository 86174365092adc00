import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// Collects a response's header lines and body from libcurl's callbacks,
/// keeping only the final response's fields and at most a set number of
/// body bytes.
struct ResponseCollector {
    /// The most body bytes kept.
    let limit: Int
    /// The fields of the latest response head.
    private(set) var fields: [HTTPField] = []
    /// The body received so far.
    private(set) var body: [UInt8] = []
    /// Whether the body went over ``limit`` (the transfer was stopped).
    private(set) var tooLarge = false
    /// Whether a final (non-1xx) status line has arrived.
    private(set) var sawFinalStatus = false

    init(limit: Int) { self.limit = limit }

    /// Takes one header line as libcurl delivers it (with its line ending).
    /// - Parameter line: the bytes of the line.
    mutating func headerLine(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if bytes.starts(with: "HTTP/".utf8) {
            // A new response head: an interim 100, or the next response
            // after a followed redirect. Only the last one's fields count.
            fields = []
            sawFinalStatus = !Self.isInterim(bytes)
            return
        }
        if bytes[0] == 0x20 || bytes[0] == 0x09 {
            // obs-fold (RFC 9112 section 5.2): a continuation of the previous value.
            guard !fields.isEmpty else { return }
            fields[fields.count - 1].value += " " + Self.trimmed(bytes[...])
            return
        }
        guard let colon = bytes.firstIndex(of: 0x3A) else { return }
        let name = String(decoding: bytes[..<colon], as: UTF8.self)
        fields.append(HTTPField(name: name, value: Self.trimmed(bytes[(colon + 1)...])))
    }

    /// Takes a chunk of the body.
    /// - Parameter chunk: the bytes.
    /// - Returns: false when the body would exceed ``limit``: the transfer must stop.
    mutating func bodyChunk(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= limit else {
            tooLarge = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    private static func isInterim(_ statusLine: UnsafeRawBufferPointer) -> Bool {
        // "HTTP/1.1 100 Continue", "HTTP/2 103": the status follows the first space.
        guard let space = statusLine.firstIndex(of: 0x20), space + 1 < statusLine.count else { return false }
        return statusLine[space + 1] == UInt8(ascii: "1")
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
