/// How far a request's body has got, reported while it is sent
/// (``HTTPRequestOptions/progress``).
///
/// Two counts, because bytes written to a socket are not bytes a server has
/// taken: ``bytesSent`` moves while the body is written, ``bytesCompleted``
/// only when the response has arrived, which is when the request is finished
/// with its bytes. Within one ``HTTPClient/send(_:options:)`` neither count
/// ever decreases, even when a body is sent again; the last report has
/// ``bytesCompleted`` equal to ``totalBytes`` when a response arrived.
public struct HTTPTransferProgress: Hashable, Sendable, CustomStringConvertible {
    /// Body bytes written to the connection so far.
    public var bytesSent: UInt64
    /// Body bytes the request is finished with: 0 until the response has
    /// arrived, then ``totalBytes``.
    public var bytesCompleted: UInt64
    /// The body's length.
    public var totalBytes: UInt64

    /// Makes a progress report.
    /// - Parameters:
    ///   - bytesSent: body bytes written.
    ///   - bytesCompleted: body bytes the request is finished with.
    ///   - totalBytes: the body's length.
    public init(bytesSent: UInt64, bytesCompleted: UInt64, totalBytes: UInt64) {
        self.bytesSent = bytesSent
        self.bytesCompleted = bytesCompleted
        self.totalBytes = totalBytes
    }

    /// `sent/total (completed)`.
    public var description: String { "\(bytesSent)/\(totalBytes) sent, \(bytesCompleted) completed" }
}
