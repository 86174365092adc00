/// A key of the shared state. Only the keys of the allow-list exist: the
/// state is for small values the programs of the group pass to each other,
/// never for message content or tokens.
public struct SharedStateKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as stored.
    public let name: String

    private init(unchecked name: String) { self.name = name }

    /// Validates a key name against the allow-list.
    /// - Throws: ``SharedStateError/keyNotAllowed(_:)`` for any other name.
    public init(_ name: String) throws {
        guard Self.isAllowed(name) else { throw SharedStateError.keyNotAllowed(name) }
        self.name = name
    }

    public var description: String { name }

    /// `notify.preview_mode`, written by the daemon for the notifier.
    public static let previewMode = SharedStateKey(unchecked: "notify.preview_mode")
    /// `file_max_upload_bytes`, the server's limit, written by the daemon.
    public static let fileMaxUploadBytes = SharedStateKey(unchecked: "file_max_upload_bytes")
    /// `message_max_attachments`, the server's limit, written by the daemon.
    public static let messageMaxAttachments = SharedStateKey(unchecked: "message_max_attachments")
    /// `client.share.recent_targets`, how many recent targets to keep.
    public static let recentTargetsLimit = SharedStateKey(unchecked: "client.share.recent_targets")
    /// `upload.part_size`, the server's part size.
    public static let uploadPartSize = SharedStateKey(unchecked: "upload.part_size")
    /// `upload.budget`, the CLI's upload time budget in seconds.
    public static let uploadBudget = SharedStateKey(unchecked: "upload.budget")
    /// `client.push.fetch_timeout`, the notifier's deadline in seconds.
    public static let pushFetchTimeout = SharedStateKey(unchecked: "client.push.fetch_timeout")
    /// `targets.recent`, the recent targets as JSON (kinds, ids, display paths only).
    public static let recentTargets = SharedStateKey(unchecked: "targets.recent")
    /// `server.url`, the origin of the server the daemon is logged in to (not a secret).
    public static let serverOrigin = SharedStateKey(unchecked: "server.url")
    /// `account.username`, the person `share login` signed in (for `share status`; not a secret).
    public static let accountUsername = SharedStateKey(unchecked: "account.username")
    /// `counters.push_display.duration_ms`, summed display durations.
    public static let displayDurationTotal = SharedStateKey(unchecked: "counters.push_display.duration_ms")
    /// `counters.push_display.count`, how many notifications were delivered.
    public static let displayCount = SharedStateKey(unchecked: "counters.push_display.count")
    /// `counters.push.placeholder`, how many notifications kept the placeholder.
    public static let placeholderCount = SharedStateKey(unchecked: "counters.push.placeholder")
    /// `counters.push.preview_refused`, how often the server refused the
    /// push registration's preview token (`401`): the notifier counts, the
    /// daemon takes the count and registers again.
    public static let previewRefusedCount = SharedStateKey(unchecked: "counters.push.preview_refused")

    /// `upload.accepted_content_types`, the server's `accepted_content_types`
    /// as a comma-separated list: intake refuses other types before sending.
    public static let acceptedContentTypes = SharedStateKey(unchecked: "upload.accepted_content_types")

    /// The DPoP nonce cached for one server origin (`dpop.nonce.<origin>`).
    public static func dpopNonce(origin: String) -> SharedStateKey {
        SharedStateKey(unchecked: dpopNoncePrefix + origin)
    }

    private static let dpopNoncePrefix = "dpop.nonce."

    /// Every fixed key of the allow-list.
    public static let fixedKeys: [SharedStateKey] = [
        previewMode, fileMaxUploadBytes, messageMaxAttachments, recentTargetsLimit, uploadPartSize,
        uploadBudget, pushFetchTimeout, recentTargets, serverOrigin, displayDurationTotal, displayCount,
        placeholderCount, acceptedContentTypes, accountUsername, previewRefusedCount,
    ]

    /// The keys the daemon writes from the server's instance values; logout removes them.
    public static let instanceKeys: [SharedStateKey] = [
        fileMaxUploadBytes, messageMaxAttachments, recentTargetsLimit, uploadPartSize, pushFetchTimeout,
        previewMode, acceptedContentTypes,
    ]

    /// Whether a name is on the allow-list.
    public static func isAllowed(_ name: String) -> Bool {
        if fixedKeys.contains(where: { $0.name == name }) { return true }
        if name.hasPrefix(dpopNoncePrefix) {
            let origin = name.dropFirst(dpopNoncePrefix.count)
            return !origin.isEmpty && origin.count <= 256 && origin.allSatisfy { $0.isASCII && !$0.isWhitespace }
        }
        return false
    }
}
