public import MessagesInterface
public import SharedStateInterface

/// The server's instance values as the shared state keeps them, per
/// account (``SharedStateInterface/SharedStateKey/accountKeys`` scoped to
/// an ``SharedStateInterface/AccountScope``): the daemon writes them after
/// each look at the server, the CLI reads them (and writes them when it had
/// to ask the server itself), logout removes them. A share for one server
/// is never judged by the limits another server told.
public enum InstanceValues {
    /// An account's limits in the shared state, or nil when the two required ones
    /// (`file_max_upload_bytes`, `message_max_attachments`) are not there or unreadable.
    /// - Parameters:
    ///   - state: the shared state.
    ///   - account: whose limits.
    public static func read(from state: any SharedStateStore, account: AccountScope) -> InstanceLimits? {
        func value(_ key: SharedStateKey) -> String? { (try? state.value(for: key.scoped(to: account))) ?? nil }
        guard let bytes = value(.fileMaxUploadBytes).flatMap({ Int64($0) }),
            let attachments = value(.messageMaxAttachments).flatMap({ Int($0) })
        else { return nil }
        return InstanceLimits(
            fileMaxUploadBytes: bytes, messageMaxAttachments: attachments,
            uploadPartSize: value(.uploadPartSize).flatMap { Int64($0) },
            recentTargets: value(.recentTargetsLimit).flatMap { Int($0) },
            acceptedContentTypes: value(.acceptedContentTypes).map { $0.split(separator: ",").map(String.init) })
    }

    /// Writes an account's limits into the shared state.
    /// - Throws: `SharedStateError` when the state cannot be written.
    public static func write(_ limits: InstanceLimits, to state: any SharedStateStore, account: AccountScope) throws {
        func set(_ value: String, _ key: SharedStateKey) throws { try state.set(value, for: key.scoped(to: account)) }
        try set(String(limits.fileMaxUploadBytes), .fileMaxUploadBytes)
        try set(String(limits.messageMaxAttachments), .messageMaxAttachments)
        if let size = limits.uploadPartSize { try set(String(size), .uploadPartSize) }
        if let count = limits.recentTargets { try set(String(count), .recentTargetsLimit) }
        if let types = limits.acceptedContentTypes { try set(types.joined(separator: ","), .acceptedContentTypes) }
    }

    /// Removes every value of an account: its limits and its recent targets (logout).
    /// - Throws: `SharedStateError` when the state cannot be written.
    public static func clear(in state: any SharedStateStore, account: AccountScope) throws {
        for key in SharedStateKey.accountKeys { try state.set(nil, for: key.scoped(to: account)) }
    }

    /// Removes the values that belong to no account (logout of the current
    /// account): the settings the daemon wrote for the account it served
    /// (`notify.preview_mode`, `client.push.fetch_timeout`) and what earlier
    /// versions kept for whichever server they talked to.
    /// - Throws: `SharedStateError` when the state cannot be written.
    public static func clearUnscoped(in state: any SharedStateStore) throws {
        for key in SharedStateKey.instanceKeys + [.recentTargets] { try state.set(nil, for: key) }
    }

    /// Moves what earlier versions kept without an account (one list of
    /// recent targets and one set of limits, for whichever server they
    /// talked to last) to the account it can only have come from: the
    /// current account, when no other server has an account on this device.
    /// Otherwise nobody can tell which server it described, and it is
    /// dropped: a recent target shown under the wrong server sends there.
    /// An account's own value wins over the old one; the old keys go either way.
    /// - Parameters:
    ///   - state: the shared state.
    ///   - current: the current account, nil when none.
    ///   - origins: every server with an account on this device.
    /// - Returns: whether anything was found.
    /// - Throws: `SharedStateError` when the state cannot be read or written
    ///   (the next start tries again; nothing reads the old keys meanwhile).
    @discardableResult
    static func migrateUnscoped(in state: any SharedStateStore, current: SignedInAccount?, origins: [String]) throws
        -> Bool
    {
        let snapshot = try state.snapshot()
        let found = SharedStateKey.accountKeys.filter { snapshot[$0.name] != nil }
        guard !found.isEmpty else { return false }
        if let current, origins.allSatisfy({ $0 == current.origin }) {
            for key in found {
                let old = snapshot[key.name]
                try state.update(key.scoped(to: current.scope)) { mine in mine ?? old }
            }
        }
        for key in found { try state.set(nil, for: key) }
        return true
    }
}
