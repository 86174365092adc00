/// The body of a response.
public enum HTTPResponseBody: Sendable, Hashable {
    /// No body (`Content-Length: 0`).
    case empty
    /// Bytes held in memory until the client has taken them. Engines
    /// bound the total of large ones they hold for clients that do not
    /// read (``HTTPServerConfiguration/maxBufferedResponseBytes``); an
    /// answer that may be large and that a client may ask for many times
    /// (a page of a list) should be bounded by the handler as well.
    case bytes([UInt8])
    /// A range of a file, sent from the file without loading it into memory
    /// (attachments, large downloads). The engine opens the file when it
    /// sends the response; if the file cannot be opened the client gets a
    /// 500 problem (`response_file_unavailable`), so check before answering
    /// when a missing file is the client's business (404).
    /// - Parameters:
    ///   - path: the file's path.
    ///   - offset: the first byte sent.
    ///   - length: the number of bytes sent; nil for everything after `offset`.
    case file(path: String, offset: UInt64 = 0, length: UInt64? = nil)
}
