/// A key of the shared state. Only the keys of the allow-list exist: the
/// state is for small values the programs of the group pass to each other,
/// never for message content, tokens, names or ids of people, or the
/// server's address (those live with the secrets, in the keychain).
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

    /// The DPoP nonce cached for one server origin: `dpop.nonce.<digest>`,
    /// where the digest is 16 hexadecimal digits of the FNV-1a hash of the
    /// origin. The key names the server without its address, which is kept
    /// with the secrets; two origins that shared a digest would only share
    /// a nonce, which the server then renews (a nonce is no secret).
    public static func dpopNonce(origin: String) -> SharedStateKey {
        SharedStateKey(unchecked: dpopNoncePrefix + originDigest(origin))
    }

    private static let dpopNoncePrefix = "dpop.nonce."

    /// 16 lowercase hexadecimal digits of the 64-bit FNV-1a hash of `origin`'s UTF-8.
    static func originDigest(_ origin: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in origin.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Keys that earlier versions wrote and that the state must no longer
    /// hold: `server.url` and `account.username` (the account now lives in
    /// the keychain) and nonce keys that carried the server's address
    /// (`dpop.nonce.https://…`). They cannot be made into a key; only
    /// ``SharedStateStore/takeRetiredValues(_:)`` reads them, once, to move
    /// them out.
    /// - Parameter name: a key name found in the state.
    /// - Returns: whether it is a retired key.
    public static func isRetired(_ name: String) -> Bool {
        if retiredNames.contains(name) { return true }
        return name.hasPrefix(dpopNoncePrefix) && !isAllowed(name)
    }

    /// The retired fixed keys: `server.url` and `account.username`.
    public static let retiredNames: Set<String> = ["server.url", "account.username"]

    /// Every fixed key of the allow-list.
    public static let fixedKeys: [SharedStateKey] = [
        previewMode, fileMaxUploadBytes, messageMaxAttachments, recentTargetsLimit, uploadPartSize,
        uploadBudget, pushFetchTimeout, recentTargets, displayDurationTotal, displayCount, placeholderCount,
        acceptedContentTypes, previewRefusedCount,
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
            let digest = name.utf8.dropFirst(dpopNoncePrefix.utf8.count)
            let hex = Set("0123456789abcdef".utf8)
            return digest.count == 16 && digest.allSatisfy(hex.contains)
        }
        return false
    }
}
