import ShareKitWireContract

/// The instance's limits and policies, from the seed with the defaults of
/// docs/protocol.md ("The seed file") for whatever the seed leaves out.
public struct InstanceSettings: Sendable, Equatable {
    /// `file_max_upload_bytes`: the largest upload.
    public var fileMaxUploadBytes: Int64 = 104_857_600
    /// `message_max_attachments`: attachments per message.
    public var messageMaxAttachments: Int = 10
    /// `upload_part_size`: the size of every part but the last.
    public var uploadPartSize: Int64 = 8_388_608
    /// `recent_targets` (`client.share.recent_targets`): how many recent targets clients keep.
    public var recentTargets: Int = 8
    /// Content types createUpload accepts; anything else is `415 unsupported_type`.
    public var acceptedContentTypes: [String] = ["text/plain", "image/jpeg", "image/png", "application/pdf"]
    /// `limits.upload_digest_algorithms`: the forms of whole-file digest
    /// createUpload takes and getInstanceLimits lists. Both unless the seed
    /// says otherwise; a seed of `["sha256"]` makes the server answer as
    /// servers did before the composite form (tests of old-server clients).
    public var uploadDigestAlgorithms: [String] = [UploadDigestAlgorithm.sha256, UploadDigestAlgorithm.sha256Composite]
    /// Access token lifetime in seconds.
    public var accessTTLSeconds: Int64 = 300
    /// Refresh token lifetime in seconds.
    public var refreshTTLSeconds: Int64 = 2_592_000
    /// Whether every DPoP proof must carry a server nonce.
    public var requireNonce: Bool = false
    /// How long a nonce is accepted after it was issued, in seconds.
    public var nonceTTLSeconds: Int64 = 60
    /// How far a proof's `iat` may be from the server's clock, in seconds.
    public var iatWindowSeconds: Int64 = 60
    /// How long createMessage remembers a `client_msg_id`, in seconds.
    public var idempotencyRetentionSeconds: Int64 = 2_592_000
    /// How long an unfinished upload lives, in seconds.
    public var uploadTTLSeconds: Int64 = 86_400
    /// PBKDF2 iterations for password verifiers.
    public var passwordIterations: Int = 100_000
    /// `limits.upload_pending_bytes_per_user`: the most bytes one user may
    /// have announced in uploads that are neither complete, aborted nor
    /// expired; createUpload beyond it is `429 upload_quota_exceeded`. The
    /// default is 1 GiB, or `file_max_upload_bytes` when that is larger.
    public var uploadPendingBytesPerUser: Int64 = InstanceSettings.defaultUploadPendingBytesPerUser
    /// `login_throttle`: when failed logins make the server answer `429`.
    public var loginThrottle = LoginThrottlePolicy()

    /// The default of ``uploadPendingBytesPerUser``: 1 GiB.
    public static let defaultUploadPendingBytesPerUser: Int64 = 1 << 30

    /// The throttling of failed logins (docs/security.md, "share-server:
    /// quotas, throttling, audit and session lifetimes").
    ///
    /// Failures are counted per user (whatever the address) and per client
    /// address (whatever the user); a count is forgotten `windowSeconds`
    /// after its last failure. From the `failuresPer…`-th failure on, the
    /// counter blocks for `baseDelaySeconds`, doubled with each further
    /// failure, at most `maxDelaySeconds`, counted from the last failure.
    public struct LoginThrottlePolicy: Sendable, Equatable {
        /// `failures_per_user`: failures for one username before it is throttled.
        public var failuresPerUser: Int = 10
        /// `failures_per_address`: failures from one client address before it is throttled.
        public var failuresPerAddress: Int = 100
        /// `window_seconds`: how long after its last failure a count is kept.
        public var windowSeconds: Int64 = 900
        /// `base_delay_seconds`: the first delay once a threshold is reached.
        public var baseDelaySeconds: Int64 = 1
        /// `max_delay_seconds`: the longest delay.
        public var maxDelaySeconds: Int64 = 300

        /// The defaults.
        public init() {}
    }

    /// The defaults docs/protocol.md lists ("Instance limits", "The seed file").
    public init() {}

    /// Reads the members of a seed file over the defaults.
    /// - Throws: ``ReferenceServerError/invalidSeed(_:)`` for a value out of range.
    init(_ file: SeedFile) throws {
        if let limits = file.limits {
            fileMaxUploadBytes = limits.fileMaxUploadBytes ?? fileMaxUploadBytes
            messageMaxAttachments = limits.messageMaxAttachments ?? messageMaxAttachments
            uploadPartSize = limits.uploadPartSize ?? uploadPartSize
            recentTargets = limits.recentTargets ?? recentTargets
        }
        if let algorithms = file.limits?.uploadDigestAlgorithms {
            let known = [UploadDigestAlgorithm.sha256, UploadDigestAlgorithm.sha256Composite]
            guard algorithms.contains(UploadDigestAlgorithm.sha256), algorithms.allSatisfy(known.contains) else {
                throw ReferenceServerError.invalidSeed(
                    "seed.limits.upload_digest_algorithms must list \"sha256\" and may list \"sha256-composite\"")
            }
            uploadDigestAlgorithms = known.filter(algorithms.contains)
        }
        if let quota = file.limits?.uploadPendingBytesPerUser {
            guard quota >= fileMaxUploadBytes, quota <= 1 << 50 else {
                throw ReferenceServerError.invalidSeed(
                    "seed.limits.upload_pending_bytes_per_user must be from file_max_upload_bytes "
                        + "(\(fileMaxUploadBytes)) to 2^50")
            }
            uploadPendingBytesPerUser = quota
        } else {
            uploadPendingBytesPerUser = max(uploadPendingBytesPerUser, fileMaxUploadBytes)
        }
        if let throttle = file.loginThrottle {
            try loginThrottle.read(throttle)
        }
        if let types = file.acceptedContentTypes {
            guard !types.isEmpty, types.allSatisfy({ $0.contains("/") && !$0.contains("*") }) else {
                throw ReferenceServerError.invalidSeed("seed.accepted_content_types must list concrete content types")
            }
            acceptedContentTypes = types
        }
        accessTTLSeconds = file.tokens?.accessTtlSeconds ?? accessTTLSeconds
        refreshTTLSeconds = file.tokens?.refreshTtlSeconds ?? refreshTTLSeconds
        requireNonce = file.dpop?.requireNonce ?? requireNonce
        nonceTTLSeconds = file.dpop?.nonceTtlSeconds ?? nonceTTLSeconds
        iatWindowSeconds = file.dpop?.iatWindowSeconds ?? iatWindowSeconds
        idempotencyRetentionSeconds = file.idempotencyRetentionSeconds ?? idempotencyRetentionSeconds
        uploadTTLSeconds = file.uploadTtlSeconds ?? uploadTTLSeconds
        guard uploadPartSize >= 1024, fileMaxUploadBytes >= 1, messageMaxAttachments >= 1, recentTargets >= 1,
            accessTTLSeconds >= 1, refreshTTLSeconds >= 1, nonceTTLSeconds >= 1, iatWindowSeconds >= 1,
            idempotencyRetentionSeconds >= 0, uploadTTLSeconds >= 1
        else {
            throw ReferenceServerError.invalidSeed(
                "seed limits, lifetimes and windows must be positive (upload_part_size at least 1024)")
        }
    }
}

extension InstanceSettings.LoginThrottlePolicy {
    /// Reads the seed's `login_throttle` over the defaults.
    /// - Throws: ``ReferenceServerError/invalidSeed(_:)`` naming a value out of range.
    fileprivate mutating func read(_ file: SeedFile.LoginThrottle) throws {
        failuresPerUser = file.failuresPerUser ?? failuresPerUser
        failuresPerAddress = file.failuresPerAddress ?? failuresPerAddress
        windowSeconds = file.windowSeconds ?? windowSeconds
        baseDelaySeconds = file.baseDelaySeconds ?? baseDelaySeconds
        maxDelaySeconds = file.maxDelaySeconds ?? maxDelaySeconds
        guard (1...1_000_000).contains(failuresPerUser), (1...1_000_000).contains(failuresPerAddress) else {
            throw ReferenceServerError.invalidSeed(
                "seed.login_throttle.failures_per_user and failures_per_address must be from 1 to 1000000")
        }
        guard (1...2_592_000).contains(windowSeconds) else {
            throw ReferenceServerError.invalidSeed("seed.login_throttle.window_seconds must be from 1 to 2592000")
        }
        guard (1...86_400).contains(baseDelaySeconds), (baseDelaySeconds...86_400).contains(maxDelaySeconds) else {
            throw ReferenceServerError.invalidSeed(
                "seed.login_throttle.base_delay_seconds must be from 1 to 86400 and max_delay_seconds "
                    + "from base_delay_seconds to 86400")
        }
    }
}
