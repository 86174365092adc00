public import ShareKitUploadsInterface

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
