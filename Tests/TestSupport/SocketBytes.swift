import Foundation

/// The byte handling the hand-written loopback servers of the tests share
/// (``HostileServer``, ``HoldingProxy``).
enum SocketBytes {
    /// Writes all of `bytes` to a socket, or as much as it takes before the peer goes away.
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// The index where `needle` first starts in `haystack` (the end of a head: CR LF CR LF).
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Reads from a socket until a request's or an answer's head is complete.
    /// - Returns: the head (without its blank line) and the bytes after it,
    ///   or nil when the peer went away first or the head is over 1 MiB.
    static func readHead(_ fd: Int32) -> (head: String, rest: [UInt8])? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = find([13, 10, 13, 10], in: received) {
                return (String(decoding: received[..<end], as: UTF8.self), Array(received[(end + 4)...]))
            }
            if received.count > 1 << 20 { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            received += buffer[0..<n]
        }
    }

    /// Reads the rest of a body of `length` bytes of which `start` arrived with the head.
    /// - Returns: the body, or nil when the peer went away first.
    static func readBody(_ fd: Int32, start: [UInt8], length: Int) -> [UInt8]? {
        var body = start
        var buffer = [UInt8](repeating: 0, count: 65536)
        while body.count < length {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, length - body.count), 0) }
            if n <= 0 { return nil }
            body += buffer[0..<n]
        }
        return body
    }
}
