import Foundation

/// The JSON shape of a seed file, decoded strictly (wrong types are errors
/// that name the member; unknown members are ignored).
struct SeedFile: Decodable {
    struct User: Decodable {
        let username: String
        let password: String
    }
    struct Channel: Decodable {
        let id: String
        let name: String
        let kind: String?
        let readers: [String]?
        let writers: [String]?
    }
    struct Space: Decodable {
        let id: String
        let name: String
        let channels: [Channel]?
    }
    struct Thread: Decodable {
        let id: String
        let channelId: String
        let title: String

        private enum CodingKeys: String, CodingKey {
            case id
            case channelId = "channel_id"
            case title
        }
    }
    struct Limits: Decodable {
        let fileMaxUploadBytes: Int64?
        let messageMaxAttachments: Int?
        let uploadPartSize: Int64?
        let recentTargets: Int?
        let uploadPendingBytesPerUser: Int64?
        let uploadDigestAlgorithms: [String]?

        private enum CodingKeys: String, CodingKey {
            case fileMaxUploadBytes = "file_max_upload_bytes"
            case messageMaxAttachments = "message_max_attachments"
            case uploadPartSize = "upload_part_size"
            case recentTargets = "recent_targets"
            case uploadPendingBytesPerUser = "upload_pending_bytes_per_user"
            case uploadDigestAlgorithms = "upload_digest_algorithms"
        }
    }
    /// The throttling of failed logins (docs/security.md, "share-server:
    /// quotas, throttling, audit and session lifetimes").
    struct LoginThrottle: Decodable {
        let failuresPerUser: Int?
        let failuresPerAddress: Int?
        let windowSeconds: Int64?
        let baseDelaySeconds: Int64?
        let maxDelaySeconds: Int64?

        private enum CodingKeys: String, CodingKey {
            case failuresPerUser = "failures_per_user"
            case failuresPerAddress = "failures_per_address"
            case windowSeconds = "window_seconds"
            case baseDelaySeconds = "base_delay_seconds"
            case maxDelaySeconds = "max_delay_seconds"
        }
    }
    struct Tokens: Decodable {
        let accessTtlSeconds: Int64?
        let refreshTtlSeconds: Int64?

        private enum CodingKeys: String, CodingKey {
            case accessTtlSeconds = "access_ttl_seconds"
            case refreshTtlSeconds = "refresh_ttl_seconds"
        }
    }
    struct DPoP: Decodable {
        let requireNonce: Bool?
        let nonceTtlSeconds: Int64?
        let iatWindowSeconds: Int64?

        private enum CodingKeys: String, CodingKey {
            case requireNonce = "require_nonce"
            case nonceTtlSeconds = "nonce_ttl_seconds"
            case iatWindowSeconds = "iat_window_seconds"
        }
    }

    let users: [User]
    let spaces: [Space]?
    let threads: [Thread]?
    let limits: Limits?
    let acceptedContentTypes: [String]?
    let tokens: Tokens?
    let dpop: DPoP?
    let idempotencyRetentionSeconds: Int64?
    /// How long an unfinished upload lives (an addition, docs/protocol.md
    /// "The seed file"; tests shorten it to see expiry).
    let uploadTtlSeconds: Int64?
    /// Thresholds and delays of the login throttle (an addition).
    let loginThrottle: LoginThrottle?

    private enum CodingKeys: String, CodingKey {
        case users
        case spaces
        case threads
        case limits
        case acceptedContentTypes = "accepted_content_types"
        case tokens
        case dpop
        case idempotencyRetentionSeconds = "idempotency_retention_seconds"
        case uploadTtlSeconds = "upload_ttl_seconds"
        case loginThrottle = "login_throttle"
    }
}

/// Describes a decoding failure by the path of the member, for people.
func describeDecodingError(_ error: any Error, root: String) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(root) { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text + "." + key.stringValue
        }
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
        return "\(path(context.codingPath + [key])) is missing"
    case DecodingError.typeMismatch(let type, let context):
        return "\(path(context.codingPath)) must be \(typeName(type))"
    case DecodingError.valueNotFound(let type, let context):
        return "\(path(context.codingPath)) must be \(typeName(type)), not null"
    case DecodingError.dataCorrupted(let context):
        return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is invalid"
    default:
        return "not valid JSON"
    }
}

private func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type, is Int64.Type: return "an integer"
    case is Bool.Type: return "true or false"
    case is Double.Type: return "a number"
    default:
        let name = "\(type)"
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") { return "an object" }
        return "an object"
    }
}
