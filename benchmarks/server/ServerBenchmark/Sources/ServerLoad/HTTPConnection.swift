import Glibc

/// The benchmark's own HTTP/1.1 client: one blocking keep-alive TCP
/// connection to 127.0.0.1 that writes pre-built requests and reads
/// `Content-Length` responses. It is the load generator, so it does as
/// little as it can: one `write` per request, usually one `read` per
/// response, no allocation per request, no header dictionary.
public final class HTTPConnection {
    /// Why a connection failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public let description: String

        /// A failure described for a person.
        public init(description: String) {
            self.description = description
        }
    }

    /// What the client needs of a response.
    public struct Response {
        /// The status code.
        public let status: Int
        /// Where the body starts and ends in ``HTTPConnection/bodyBytes``.
        public let body: Range<Int>
        /// Whether the server said `Connection: close`.
        public let closes: Bool
    }

    private let port: UInt16
    private var fd: Int32 = -1
    /// Received bytes; `start..<end` are not consumed yet.
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var start = 0
    private var end = 0

    /// Connects.
    /// - Throws: ``Failure`` when the connection cannot be made.
    public init(port: UInt16) throws {
        self.port = port
        try connect()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Closes and connects again (after an error or `Connection: close`).
    public func reconnect() throws {
        if fd >= 0 { close(fd) }
        fd = -1
        start = 0
        end = 0
        try connect()
    }

    private func connect() throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
        var one: Int32 = 1
        setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        fd = socketFD
    }

    /// Writes a whole request.
    /// - Throws: ``Failure`` when the connection fails.
    public func send(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "write: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    /// The bytes a ``Response/body`` range indexes; valid until the next call.
    public var bodyBytes: [UInt8] { buffer }

    /// Reads one response.
    /// - Throws: ``Failure`` when the connection fails or the response is not
    ///   one this client understands (no `Content-Length`).
    public func receive() throws -> Response {
        // Offsets are relative to `start`: `fill` may move the unconsumed bytes to the front.
        var scanned = 0
        var headerLength = -1
        while headerLength < 0 {
            while start + scanned + 3 < end {
                let index = start + scanned
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    headerLength = scanned + 4
                    break
                }
                scanned += 1
            }
            if headerLength < 0 { try fill() }
        }
        let status = parseStatus()
        let headers = parseHeaders(upTo: start + headerLength)
        guard let length = headers.contentLength else {
            throw Failure(description: "response without Content-Length (status \(status))")
        }
        while end - start < headerLength + length { try fill() }
        let bodyStart = start + headerLength
        start = bodyStart + length
        return Response(status: status, body: bodyStart..<start, closes: headers.closes)
    }

    /// Reads more bytes, moving unconsumed ones to the front first when the buffer is full.
    private func fill() throws {
        if start == end {
            start = 0
            end = 0
        }
        if end == buffer.count {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    let base = raw.baseAddress!
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            } else {
                buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
            }
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + end, raw.count - end) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw Failure(
                    description: n == 0
                        ? "the server closed the connection" : "read: \(String(cString: strerror(errno)))")
            }
            end += n
            return
        }
    }

    /// The status code of "HTTP/1.1 201 Created" at `start`.
    private func parseStatus() -> Int {
        var index = start
        while index < end, buffer[index] != 32 { index += 1 }
        var status = 0
        index += 1
        while index < end, buffer[index] >= 48, buffer[index] <= 57 {
            status = status * 10 + Int(buffer[index] - 48)
            index += 1
        }
        return status
    }

    /// `Content-Length` and `Connection: close` from the header lines before `headerEnd`.
    private func parseHeaders(upTo headerEnd: Int) -> (contentLength: Int?, closes: Bool) {
        var contentLength: Int?
        var closes = false
        var line = start
        while line < headerEnd - 2 {
            var lineEnd = line
            while buffer[lineEnd] != 13 { lineEnd += 1 }
            if matches("content-length:", at: line, before: lineEnd) {
                var index = line + 15
                var value = 0
                while index < lineEnd {
                    let byte = buffer[index]
                    if byte >= 48, byte <= 57 { value = value * 10 + Int(byte - 48) }
                    index += 1
                }
                contentLength = value
            } else if matches("connection:", at: line, before: lineEnd) {
                closes = String(decoding: buffer[(line + 11)..<lineEnd], as: UTF8.self).lowercased().contains("close")
            }
            line = lineEnd + 2
        }
        return (contentLength, closes)
    }

    /// Whether the bytes at `index` start with `lowercased`, ignoring ASCII case.
    private func matches(_ lowercased: StaticString, at index: Int, before limit: Int) -> Bool {
        let count = lowercased.utf8CodeUnitCount
        guard limit - index >= count else { return false }
        let pattern = lowercased.utf8Start
        for offset in 0..<count {
            var byte = buffer[index + offset]
            if byte >= 65, byte <= 90 { byte += 32 }
            if byte != pattern[offset] { return false }
        }
        return true
    }
}
