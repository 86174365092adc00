import Foundation
import KeychainInterface
import SessionsInterface

/// The body of a token response: `{session_id, access_token, refresh_token,
/// token_type: "DPoP", expires_in, refresh_expires_in}`.
enum TokenResponse {
    private struct Body: Decodable {
        var sessionID: String
        var accessToken: String
        var refreshToken: String
        var tokenType: String?
        var expiresIn: Int64
        var refreshExpiresIn: Int64

        enum CodingKeys: String, CodingKey {
            case sessionID = "session_id"
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
            case refreshExpiresIn = "refresh_expires_in"
        }
    }

    /// The session a token response describes.
    /// - Parameters:
    ///   - body: the response body.
    ///   - sentAt: when the request was sent (Unix seconds): lifetimes count from there.
    /// - Returns: the tokens, or nil when a member is missing, empty or of the
    ///   wrong type, or the token type is not DPoP (a bearer token would be
    ///   sent without the binding the server checks).
    static func decode(_ body: [UInt8], sentAt: Int64) -> SessionTokens? {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)),
            !decoded.sessionID.isEmpty, !decoded.accessToken.isEmpty, !decoded.refreshToken.isEmpty,
            decoded.tokenType.map({ $0.lowercased() == "dpop" }) ?? true,
            decoded.expiresIn > 0, decoded.refreshExpiresIn > 0
        else { return nil }
        return SessionTokens(
            sessionID: decoded.sessionID, accessToken: SecretValue(utf8: decoded.accessToken),
            accessExpiresAt: sentAt + decoded.expiresIn, refreshToken: SecretValue(utf8: decoded.refreshToken),
            refreshExpiresAt: sentAt + decoded.refreshExpiresIn, obtainedAt: sentAt)
    }
}
