public import HTTPInterface
public import UploadsInterface

/// Where a send is.
public enum SendProgress: Hashable, Sendable {
    /// Uploading attachment `index` (0-based) of `count`.
    case uploading(index: Int, count: Int, UploadProgress)
    /// Attachment `index` is complete on the server as `uploadID`: keep it
    /// (``OutgoingShare/completedUploadIDs``) so a later attempt reuses it.
    case uploaded(index: Int, uploadID: String)
    /// Every attachment is uploaded; the message is being created.
    case creatingMessage
}

/// Sends a share: uploads its attachments, then creates the message (or the
/// new post). The one sending implementation the CLI and the daemon share
/// (docs/architecture.md); every failure is classified as a ``SendError``.
public protocol ShareSending: Sendable {
    func send(
        _ share: OutgoingShare, progress: (@Sendable (SendProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage
}
