import ShareKitKeychainInterface
import ShareKitServerAPIInterface
import ShareKitSessionsInterface
import ShareKitWireContract

/// Turns a token answer into the tokens a session keeps.
enum TokenResponse {
    /// The longest lifetime taken from a server: ten years. A larger one
    /// (a mistake, or a hostile server's way to overflow the expiry) is cut to it.
    static let maximumLifetime: Int64 = 10 * 365 * 24 * 3600

    /// The session a token response describes.
    /// - Parameters:
    ///   - body: the response body.
    ///   - sentAt: when the request was sent (Unix seconds): lifetimes count from there.
    /// - Returns: the tokens, or nil when a member is missing, empty or of the
    ///   wrong type, a lifetime is not positive, or the token type is not
    ///   DPoP (a bearer token would be sent without the binding the server checks).
    static func decode(_ body: [UInt8], sentAt: Int64) -> SessionTokens? {
        guard let decoded = try? APIJSON.decode(TokenAnswer.self, from: body),
            !decoded.sessionID.isEmpty, !decoded.accessToken.isEmpty, !decoded.refreshToken.isEmpty,
            decoded.tokenType.lowercased() == "dpop",
            decoded.expiresIn > 0, decoded.refreshExpiresIn > 0
        else { return nil }
        let access = min(decoded.expiresIn, maximumLifetime)
        let refresh = min(decoded.refreshExpiresIn, maximumLifetime)
        let (accessAt, accessOverflow) = sentAt.addingReportingOverflow(access)
        let (refreshAt, refreshOverflow) = sentAt.addingReportingOverflow(refresh)
        guard !accessOverflow, !refreshOverflow else { return nil }
        return SessionTokens(
            sessionID: decoded.sessionID, accessToken: SecretValue(utf8: decoded.accessToken),
            accessExpiresAt: accessAt, refreshToken: SecretValue(utf8: decoded.refreshToken),
            refreshExpiresAt: refreshAt, obtainedAt: sentAt)
    }
}
