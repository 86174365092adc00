/// An entry of the share inbox as found on disk: a folder named by the
/// share's `client_msg_id` with its files and a valid manifest.
public struct InboxEntry: Hashable, Sendable {
    /// The entry's id (the folder name, equal to the manifest's `client_msg_id`).
    public var id: String
    /// The entry folder's absolute path.
    public var directory: String
    /// The manifest.
    public var manifest: InboxManifest
    /// Seconds since the share was created (from `created_at`).
    public var ageSeconds: Int64
    /// Another process (a `share send` at work, the daemon) holds its lock now.
    public var isLocked: Bool

    /// Makes an entry value.
    public init(id: String, directory: String, manifest: InboxManifest, ageSeconds: Int64, isLocked: Bool) {
        self.id = id
        self.directory = directory
        self.manifest = manifest
        self.ageSeconds = ageSeconds
        self.isLocked = isLocked
    }

    /// The absolute path of one attachment's file.
    public func path(of attachment: InboxAttachment) -> String { directory + "/" + attachment.file }
}

/// An entry that could not be used and was moved aside, with the reason.
public struct QuarantinedEntry: Hashable, Sendable {
    /// The folder name it had in the inbox.
    public var id: String
    /// Where it is now.
    public var directory: String
    /// Why it was quarantined (for a person).
    public var reason: String

    /// Makes a value.
    public init(id: String, directory: String, reason: String) {
        self.id = id
        self.directory = directory
        self.reason = reason
    }
}

/// What one look at the inbox found. Corrupt or foreign entries were
/// quarantined during the scan and are listed, never thrown.
public struct InboxScan: Hashable, Sendable {
    /// Valid entries, oldest first.
    public var entries: [InboxEntry]
    /// Everything in quarantine (moved by this scan or earlier), with reasons.
    public var quarantined: [QuarantinedEntry]
    /// The ids of entries older than the configured maximum age: reported,
    /// never silently dropped.
    public var stale: [String]

    /// Makes a scan result.
    public init(entries: [InboxEntry], quarantined: [QuarantinedEntry], stale: [String]) {
        self.entries = entries
        self.quarantined = quarantined
        self.stale = stale
    }
}
