/// The named configuration values: client settings and the server's
/// instance limits (docs/protocol.md, "Instance limits").
///
/// Code and comments name these keys instead of bare numbers, so a limit is
/// changed in one place and found by searching for its name.
public enum ConfigKey: String, CaseIterable, Sendable {
    /// How many recent targets the picker offers.
    case recentTargets = "client.share.recent_targets"
    /// The largest file the server accepts, in bytes.
    case fileMaxUploadBytes = "file_max_upload_bytes"
    /// How many attachments one message may carry.
    case messageMaxAttachments = "message_max_attachments"
    /// How long the notifier may wait for a preview, in seconds.
    case pushFetchTimeout = "client.push.fetch_timeout"
    /// The size of one upload part, in bytes.
    case uploadPartSize = "upload.part_size"
    /// How long the CLI may spend uploading before it hands the share to the daemon, in seconds.
    case uploadBudget = "upload.budget"
}
