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
    /// `targets.recent`, the recent targets as JSON (kinds, ids, display
    /// paths only). Kept per account (``scoped(to:)``); the key alone is the
    /// one list earlier versions kept for every server, which is only read
    /// to be moved to the account it is known to belong to.
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

    /// `upload.digest_algorithms`, the server's `upload_digest_algorithms`
    /// as a comma-separated list: with `sha256-composite` the uploader
    /// hashes the file once, part by part.
    public static let uploadDigestAlgorithms = SharedStateKey(unchecked: "upload.digest_algorithms")

    /// The DPoP nonce cached for one server origin: `dpop.nonce.<digest>`,
    /// where the digest is 16 hexadecimal digits of the FNV-1a hash of the
    /// origin. The key names the server without its address, which is kept
    /// with the secrets; two origins that shared a digest would only share
    /// a nonce, which the server then renews (a nonce is no secret).
    public static func dpopNonce(origin: String) -> SharedStateKey {
        SharedStateKey(unchecked: dpopNoncePrefix + originDigest(origin))
    }

    private static let dpopNoncePrefix = "dpop.nonce."

    /// The keys whose values belong to one account on one server: the
    /// recent targets and the server's limits as that account was told them.
    /// Each is stored as ``scoped(to:)`` for an account; the key alone is
    /// what earlier versions wrote for whichever server they talked to.
    public static let accountKeys: [SharedStateKey] = [
        recentTargets, recentTargetsLimit, fileMaxUploadBytes, messageMaxAttachments, uploadPartSize,
        acceptedContentTypes, uploadDigestAlgorithms,
    ]

    /// This key for one account: `account.<digest>.<name>`, where the digest
    /// is the account's ``AccountScope/digest``. The key names the account
    /// without its server's address or the person's name, which are kept
    /// with the secrets.
    /// - Parameter account: the account (a server and a username).
    /// - Returns: the account's key; for a key not in ``accountKeys`` the
    ///   name is not on the allow-list, and the store refuses it when read back.
    public func scoped(to account: AccountScope) -> SharedStateKey {
        SharedStateKey(unchecked: Self.accountPrefix + account.digest + "." + name)
    }

    private static let accountPrefix = "account."

    /// Whether a name is `account.<16 lowercase hexadecimal digits>.<a key of accountKeys>`.
    private static func isAccountKey(_ name: String) -> Bool {
        guard name.hasPrefix(accountPrefix) else { return false }
        let rest = name.utf8.dropFirst(accountPrefix.utf8.count)
        let hex = Set("0123456789abcdef".utf8)
        guard rest.count > 17, rest.prefix(16).allSatisfy(hex.contains),
            rest.dropFirst(16).first == UInt8(ascii: ".")
        else { return false }
        let base = String(decoding: rest.dropFirst(17), as: UTF8.self)
        return accountKeys.contains { $0.name == base }
    }

    /// 16 lowercase hexadecimal digits of the 64-bit FNV-1a hash of `origin`'s UTF-8.
    static func originDigest(_ origin: String) -> String {
        fnv1a(origin)
    }

    /// 16 lowercase hexadecimal digits of the 64-bit FNV-1a hash of `text`'s UTF-8.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
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
        acceptedContentTypes, previewRefusedCount, uploadDigestAlgorithms,
    ]

    /// The keys the daemon writes from the server's instance values, without
    /// an account: the settings of the account it serves (`client.push.fetch_timeout`,
    /// `notify.preview_mode`) and the limits as earlier versions kept them.
    /// Logging out of the current account removes them; an account's own
    /// limits are ``accountKeys`` scoped to it.
    public static let instanceKeys: [SharedStateKey] = [
        fileMaxUploadBytes, messageMaxAttachments, recentTargetsLimit, uploadPartSize, pushFetchTimeout,
        previewMode, acceptedContentTypes, uploadDigestAlgorithms,
    ]

    /// Whether a name is on the allow-list.
    public static func isAllowed(_ name: String) -> Bool {
        if fixedKeys.contains(where: { $0.name == name }) { return true }
        if isAccountKey(name) { return true }
        if name.hasPrefix(dpopNoncePrefix) {
            let digest = name.utf8.dropFirst(dpopNoncePrefix.utf8.count)
            let hex = Set("0123456789abcdef".utf8)
            return digest.count == 16 && digest.allSatisfy(hex.contains)
        }
        return false
    }
}

/// One account on one server, as the shared state names it: a digest of
/// the server's origin and the username, so the state keeps each account's
/// recent targets and limits apart without holding the address or the name.
///
/// The digest is 16 hexadecimal digits of the 64-bit FNV-1a hash of
/// `origin`, a newline and the username. It is a name, not a secret: two
/// accounts that shared a digest would share their recent targets and cached
/// limits (never a session), and a digest does not hide a username someone
/// can guess.
public struct AccountScope: Hashable, Sendable, CustomStringConvertible {
    /// 16 lowercase hexadecimal digits.
    public let digest: String

    /// - Parameters:
    ///   - origin: the server's origin (`https://host[:port]`).
    ///   - username: the username; nil when the account's name is not known
    ///     (an account an earlier version recorded without it).
    public init(origin: String, username: String?) {
        digest = SharedStateKey.fnv1a(origin + "\n" + (username ?? ""))
    }

    public var description: String { "account \(digest)" }
}
