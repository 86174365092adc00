public import ShareKitSharedStateInterface

/// The server's limits as the shared state keeps them, per account
/// (``ShareKitSharedStateInterface/SharedStateKey/accountKeys`` scoped to an
/// ``ShareKitSharedStateInterface/AccountScope``): the daemon writes them after each
/// look at the server, the CLI reads them (and writes them when it had to
/// ask the server itself), logout removes them
/// (``ShareKitSharedStateInterface/SharedStateStore/clearAccountValues(of:)``). A
/// share for one server is never judged by the limits another server told.
extension SharedStateStore {
    /// An account's limits, or nil when the two required ones
    /// (`file_max_upload_bytes`, `message_max_attachments`) are not there or unreadable.
    /// - Parameter account: whose limits.
    public func instanceLimits(of account: AccountScope) -> InstanceLimits? {
        // One read of the state for all six values: one consistent version
        // of them, and one file read and lock instead of six on every share.
        guard let values = try? snapshot() else { return nil }
        func stored(_ key: SharedStateKey) -> String? { values[key.scoped(to: account).name] }
        guard let bytes = stored(.fileMaxUploadBytes).flatMap({ Int64($0) }),
            let attachments = stored(.messageMaxAttachments).flatMap({ Int($0) })
        else { return nil }
        return InstanceLimits(
            fileMaxUploadBytes: bytes, messageMaxAttachments: attachments,
            uploadPartSize: stored(.uploadPartSize).flatMap { Int64($0) },
            recentTargets: stored(.recentTargetsLimit).flatMap { Int($0) },
            acceptedContentTypes: stored(.acceptedContentTypes).map { $0.split(separator: ",").map(String.init) },
            uploadDigestAlgorithms: stored(.uploadDigestAlgorithms).map { $0.split(separator: ",").map(String.init) })
    }

    /// Writes an account's limits.
    /// - Parameters:
    ///   - limits: the server's limits.
    ///   - account: whose limits.
    /// - Throws: `SharedStateError` when the state cannot be written.
    public func storeInstanceLimits(_ limits: InstanceLimits, of account: AccountScope) throws {
        func store(_ text: String, _ key: SharedStateKey) throws { try set(text, for: key.scoped(to: account)) }
        try store(String(limits.fileMaxUploadBytes), .fileMaxUploadBytes)
        try store(String(limits.messageMaxAttachments), .messageMaxAttachments)
        if let size = limits.uploadPartSize { try store(String(size), .uploadPartSize) }
        if let count = limits.recentTargets { try store(String(count), .recentTargetsLimit) }
        if let types = limits.acceptedContentTypes { try store(types.joined(separator: ","), .acceptedContentTypes) }
        if let forms = limits.uploadDigestAlgorithms {
            try store(forms.joined(separator: ","), .uploadDigestAlgorithms)
        }
    }
}
