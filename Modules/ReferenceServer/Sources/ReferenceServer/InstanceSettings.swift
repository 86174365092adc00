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

    /// The defaults docs/protocol.md lists ("Instance limits", "The seed file").
    public init() {}

    /// Reads the members of a seed file over the defaults.
    /// - Throws: ``ServerSeedError/invalid(_:)`` for a value out of range.
    init(_ file: SeedFile) throws {
        if let limits = file.limits {
            fileMaxUploadBytes = limits.fileMaxUploadBytes ?? fileMaxUploadBytes
            messageMaxAttachments = limits.messageMaxAttachments ?? messageMaxAttachments
            uploadPartSize = limits.uploadPartSize ?? uploadPartSize
            recentTargets = limits.recentTargets ?? recentTargets
        }
        if let types = file.acceptedContentTypes {
            guard !types.isEmpty, types.allSatisfy({ $0.contains("/") && !$0.contains("*") }) else {
                throw ServerSeedError.invalid("seed.accepted_content_types must list concrete content types")
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
            throw ServerSeedError.invalid(
                "seed limits, lifetimes and windows must be positive (upload_part_size at least 1024)")
        }
    }
}
