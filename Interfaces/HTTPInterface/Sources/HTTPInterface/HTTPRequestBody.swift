/// The body of a request.
public enum HTTPRequestBody: Hashable, Sendable {
    /// No body.
    case empty
    /// Bytes held in memory (JSON documents and other small bodies).
    case bytes([UInt8])
    /// A range of a file, streamed from disk as it is sent and never held in
    /// memory whole (upload parts).
    case file(HTTPFileRegion)

    /// The number of body bytes, which is the request's `Content-Length`.
    public var length: UInt64 {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return UInt64(bytes.count)
        case .file(let region): return region.length
        }
    }
}
