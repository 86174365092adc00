import Foundation

/// The JSON shape of a seed file, decoded strictly (wrong types are errors
/// that name the member; unknown members are ignored).
struct SeedFile: Decodable {
    struct User: Decodable { let username: String; let password: String }
    struct Channel: Decodable {
        let id: String
        let name: String
        let kind: String?
        let readers: [String]?
        let writers: [String]?
    }
    struct Space: Decodable { let id: String; let name: String; let channels: [Channel]? }
    struct Thread: Decodable { let id: String; let channel_id: String; let title: String }
    struct Limits: Decodable {
        let file_max_upload_bytes: Int64?
        let message_max_attachments: Int?
        let upload_part_size: Int64?
        let recent_targets: Int?
    }
    struct Tokens: Decodable { let access_ttl_seconds: Int64?; let refresh_ttl_seconds: Int64? }
    struct DPoP: Decodable { let require_nonce: Bool?; let nonce_ttl_seconds: Int64?; let iat_window_seconds: Int64? }

    let users: [User]
    let spaces: [Space]?
    let threads: [Thread]?
    let limits: Limits?
    let accepted_content_types: [String]?
    let tokens: Tokens?
    let dpop: DPoP?
    let idempotency_retention_seconds: Int64?
    /// How long an unfinished upload lives (not in PROTOCOL.md's example; tests shorten it to see expiry).
    let upload_ttl_seconds: Int64?
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
