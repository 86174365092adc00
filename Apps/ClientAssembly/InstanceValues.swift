public import MessagesInterface
public import SharedStateInterface

/// The server's instance values as the shared state keeps them: the daemon
/// writes them after each look at the server, the CLI reads them (and
/// writes them when it had to ask the server itself), logout removes them.
public enum InstanceValues {
    /// The limits in the shared state, or nil when the two required ones
    /// (`file_max_upload_bytes`, `message_max_attachments`) are not there or unreadable.
    /// - Parameter state: the shared state.
    public static func read(from state: any SharedStateStore) -> InstanceLimits? {
        guard let bytes = (try? state.value(for: .fileMaxUploadBytes)).flatMap({ $0 }).flatMap({ Int64($0) }),
            let attachments = (try? state.value(for: .messageMaxAttachments)).flatMap({ $0 }).flatMap({ Int($0) })
        else { return nil }
        let types = (try? state.value(for: .acceptedContentTypes)).flatMap { $0 }
        return InstanceLimits(
            fileMaxUploadBytes: bytes, messageMaxAttachments: attachments,
            uploadPartSize: (try? state.value(for: .uploadPartSize)).flatMap { $0 }.flatMap { Int64($0) },
            recentTargets: (try? state.value(for: .recentTargetsLimit)).flatMap { $0 }.flatMap { Int($0) },
            acceptedContentTypes: types.map { $0.split(separator: ",").map(String.init) })
    }

    /// Writes the limits into the shared state.
    /// - Throws: `SharedStateError` when the state cannot be written.
    public static func write(_ limits: InstanceLimits, to state: any SharedStateStore) throws {
        try state.set(String(limits.fileMaxUploadBytes), for: .fileMaxUploadBytes)
        try state.set(String(limits.messageMaxAttachments), for: .messageMaxAttachments)
        if let size = limits.uploadPartSize { try state.set(String(size), for: .uploadPartSize) }
        if let count = limits.recentTargets { try state.set(String(count), for: .recentTargetsLimit) }
        if let types = limits.acceptedContentTypes {
            try state.set(types.joined(separator: ","), for: .acceptedContentTypes)
        }
    }

    /// Removes every instance value (logout).
    /// - Throws: `SharedStateError` when the state cannot be written.
    public static func clear(in state: any SharedStateStore) throws {
        for key in SharedStateKey.instanceKeys { try state.set(nil, for: key) }
    }
}
