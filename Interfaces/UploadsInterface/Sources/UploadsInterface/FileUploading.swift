public import ShareKitHTTPInterface
public import ShareKitServerAPIInterface

/// Uploads one file with the upload protocol (create, parts, resume,
/// complete, abort): what the delivery engine of the CLI and of the daemon
/// uses.
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
    /// - Throws: the API client's ``ShareKitServerAPIInterface/APIError`` as the
    ///   upload ends with it: `retryable` (a passing failure that outlasted
    ///   the retries, its reason in the message; `budget` when the time
    ///   budget ran out, the upload record kept for a later attempt),
    ///   `refused` (the server's refusal, or `413 too_large` checked before
    ///   any byte is sent), `sessionEnded`, `failed(.fileChanged)` (the file
    ///   is not the version described), `cancelled` (aborted on the server).
    func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload
}
