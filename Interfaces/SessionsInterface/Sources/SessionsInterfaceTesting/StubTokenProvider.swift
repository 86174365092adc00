public import ShareKitKeychainInterface
public import ShareKitSessionsInterface
import Synchronization

/// A test double of ``ShareKitSessionsInterface/AccessTokenProvider``: hands out one
/// fixed token (or a new one after each reported rejection, or always fails)
/// and counts the requests and rejections.
///
/// ```swift
/// let tokens = StubTokenProvider()
/// let api = AuthorizedClient(origin: origin, client: client, tokens: tokens)
/// #expect(tokens.rejections == 1)
/// ```
public final class StubTokenProvider: AccessTokenProvider {
    /// The role the provider says it serves.
    public let role: SessionRole
    private let token: String
    private let sessionID: String
    private let rotatesOnRejection: Bool
    private let failure: SessionError?
    private let state = Mutex((requests: 0, rejections: 0))

    /// Makes a provider.
    /// - Parameters:
    ///   - role: the role it serves; by default the child session.
    ///   - token: the token's value.
    ///   - sessionID: the token's session id.
    ///   - rotatesOnRejection: when true the token is `<token>-<rejections so far>`.
    ///   - failure: when set, every request for a token fails with it.
    public init(
        role: SessionRole = .child, token: String = "token", sessionID: String = "ses_test",
        rotatesOnRejection: Bool = false, failure: SessionError? = nil
    ) {
        self.role = role
        self.token = token
        self.sessionID = sessionID
        self.rotatesOnRejection = rotatesOnRejection
        self.failure = failure
    }

    /// How many tokens were asked for.
    public var requests: Int { state.withLock { $0.requests } }

    /// How many rejections were reported.
    public var rejections: Int { state.withLock { $0.rejections } }

    /// The fixed token, or the failure.
    /// - Returns: the token.
    /// - Throws: the failure given to ``init(role:token:sessionID:rotatesOnRejection:failure:)``.
    public func currentAccessToken() async throws(SessionError) -> AccessToken {
        let rejections = state.withLock { state in
            state.requests += 1
            return state.rejections
        }
        if let failure { throw failure }
        let value = rotatesOnRejection ? "\(token)-\(rejections)" : token
        return AccessToken(sessionID: sessionID, value: SecretValue(utf8: value), expiresAt: Int64.max)
    }

    /// Counts a rejection.
    /// - Parameter token: the rejected token.
    public func reportRejected(token: AccessToken) async {
        state.withLock { $0.rejections += 1 }
    }
}
