/// Hands out the access token of one session family and keeps it fresh:
/// what the senders (uploads, messages, the preview fetcher) depend on.
///
/// A sender asks for the token before each request and never keeps it: the
/// provider refreshes it when it has expired or is about to, and another
/// process of the app group may rotate it at any time. When the server
/// refuses a token the provider handed out (`401 token_expired`, or
/// `invalid_token` because another process rotated it), the sender calls
/// ``reportRejected(token:)`` and asks again, once.
///
/// Implementations are safe to call from many tasks at once and refresh a
/// family at most once for all of them (single flight), inside the process
/// and across the processes that share the keychain group.
public protocol AccessTokenProvider: Sendable {
    /// The family this provider serves; it never touches the other one.
    var role: SessionRole { get }

    /// The current access token, refreshed first when it has expired, is
    /// about to expire, or was reported rejected.
    /// - Returns: a token that was valid when it was stored.
    /// - Throws: ``SessionError/unavailable(_:)`` when there is no session
    ///   to use (no tokens, revoked, refresh reuse, refresh expired): the
    ///   stored tokens are gone and only a new session helps;
    ///   ``SessionError/retryable(_:)`` when a needed refresh failed for a
    ///   passing reason (no network, a timeout, `5xx`, `429`), tokens kept;
    ///   ``SessionError/cancelled`` and ``SessionError/failed(_:)`` otherwise.
    func currentAccessToken() async throws(SessionError) -> AccessToken

    /// Tells the provider that the server refused `token` as expired or
    /// unknown, so the next ``currentAccessToken()`` refreshes (once, and
    /// only if no other caller or process replaced the token meanwhile).
    /// - Parameter token: the token the server refused.
    func reportRejected(token: AccessToken) async
}
