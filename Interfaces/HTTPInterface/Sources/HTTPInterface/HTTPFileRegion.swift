/// A byte range of a file, sent as a request body straight from disk.
///
/// It is a description, not an open stream: a client opens the file when a
/// transfer starts and closes it when the transfer ends, so a request with
/// this body can be sent again (a DPoP nonce repetition, a resumed upload)
/// and sends the same bytes. The client checks at the start that the file is
/// a regular file at least ``offset`` + ``length`` bytes long, and fails the
/// transfer with ``HTTPClientError/fileChanged(path:reason:)`` if it becomes
/// shorter while being sent.
public struct HTTPFileRegion: Hashable, Sendable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The first byte sent.
    public var offset: UInt64
    /// The number of bytes sent (the request's `Content-Length`).
    public var length: UInt64

    /// Describes a region.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - offset: the first byte sent.
    ///   - length: how many bytes to send.
    public init(path: String, offset: UInt64 = 0, length: UInt64) {
        self.path = path
        self.offset = offset
        self.length = length
    }

    /// `path [offset, offset+length)`, for logs.
    public var description: String { "\(path) [\(offset), \(offset + length))" }
}
