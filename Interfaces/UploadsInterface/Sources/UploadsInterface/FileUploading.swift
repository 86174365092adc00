public import HTTPInterface

/// Uploads one file with the upload protocol (create, parts, resume,
/// complete, abort): what the `Sender` of the CLI and of the daemon uses.
public protocol FileUploading: Sendable {
    /// Uploads a file, resuming an upload recorded for the same file version
    /// when there is one.
    /// - Parameters:
    ///   - source: the file and what the server is told about it.
    ///   - limits: the instance limits, checked before any byte is sent.
    ///   - budget: how long the upload may take; nil for
    ///     ``UploadBudget/defaultBudget(forSize:)``.
    ///   - progress: called as parts are acknowledged (see ``UploadProgress``);
    ///     keep it quick.
    ///   - cancellation: cancels the upload from elsewhere; it is then
    ///     aborted on the server.
    /// - Returns: the completed upload.
    /// - Throws: ``UploadError``.
    func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(UploadError) -> CompletedUpload
}
