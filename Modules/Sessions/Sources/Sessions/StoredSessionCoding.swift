import Foundation
import KeychainInterface
import SessionsInterface
import WireContract

/// The keychain item's value: a versioned JSON object with both tokens and
/// their times. Decoding is strict (every member, right types), and no
/// failure says anything about the bytes.
enum StoredSessionCoding {
    /// The format version; a reader refuses others rather than guess.
    static let version = 1

    private struct Stored: Codable {
        var version: Int
        var sessionID: String
        var accessToken: String
        var accessExpiresAt: Int64
        var refreshToken: String
        var refreshExpiresAt: Int64
        var obtainedAt: Int64
        /// Absent in items written before it existed: false.
        var refreshAttempted: Bool?
        /// Absent in items written before it existed, and while it is 0.
        var refreshRetries: Int?

        enum CodingKeys: String, CodingKey {
            case version = "v"
            case sessionID = "session_id"
            case accessToken = "access_token"
            case accessExpiresAt = "access_expires_at"
            case refreshToken = "refresh_token"
            case refreshExpiresAt = "refresh_expires_at"
            case obtainedAt = "obtained_at"
            case refreshAttempted = "refresh_attempted"
            case refreshRetries = "refresh_retries"
        }
    }

    /// The item value of a stored session.
    /// - Parameter tokens: the session.
    /// - Returns: the JSON bytes, wrapped.
    static func encode(_ tokens: SessionTokens) -> SecretValue {
        let stored = Stored(
            version: version, sessionID: tokens.sessionID, accessToken: tokens.accessToken.utf8String ?? "",
            accessExpiresAt: tokens.accessExpiresAt, refreshToken: tokens.refreshToken.utf8String ?? "",
            refreshExpiresAt: tokens.refreshExpiresAt, obtainedAt: tokens.obtainedAt,
            refreshAttempted: tokens.refreshAttempted ? true : nil,
            refreshRetries: tokens.refreshRetries > 0 ? tokens.refreshRetries : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of strings and integers cannot fail.
        let bytes = (try? encoder.encode(stored)).map { [UInt8]($0) } ?? []
        return SecretValue(bytes: bytes)
    }

    /// The stored session in an item value.
    /// - Parameter value: the item's value.
    /// - Returns: the session, or nil when the value is not a version-1 stored session.
    static func decode(_ value: SecretValue) -> SessionTokens? {
        let stored = value.withBytes { bytes in try? JSONDecoder().decode(Stored.self, from: Data(bytes)) }
        // Times are Unix seconds between 1970 and the year 9999: anything
        // else was not written by this code and is not used in arithmetic.
        let times = 0...253_402_300_799 as ClosedRange<Int64>
        guard let stored, stored.version == version, !stored.accessToken.isEmpty, !stored.refreshToken.isEmpty,
            times.contains(stored.accessExpiresAt), times.contains(stored.refreshExpiresAt),
            times.contains(stored.obtainedAt),
            (0...RefreshBody.retryAttempts.upperBound).contains(stored.refreshRetries ?? 0)
        else { return nil }
        var tokens = SessionTokens(
            sessionID: stored.sessionID, accessToken: SecretValue(utf8: stored.accessToken),
            accessExpiresAt: stored.accessExpiresAt, refreshToken: SecretValue(utf8: stored.refreshToken),
            refreshExpiresAt: stored.refreshExpiresAt, obtainedAt: stored.obtainedAt,
            refreshAttempted: stored.refreshAttempted ?? false)
        tokens.refreshRetries = stored.refreshRetries ?? 0
        return tokens
    }
}
