public import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitWireContract

/// How the session code talks to the server and when it refreshes.
public struct SessionConfiguration: Sendable {
    /// How many seconds before its expiry an access token is replaced, so
    /// that a request made with it does not arrive after it expired. Capped
    /// at half the token's lifetime (see
    /// ``ShareKitSessionsInterface/SessionTokens/accessTokenNeedsRefresh(at:leeway:)``).
    public var refreshLeewaySeconds: Int64
    /// The pause between tries of the cross-process refresh lock while
    /// another process holds it.
    public var lockPollInterval: Duration
    /// Time limits of each token request. A process holds the refresh lock
    /// for at most about this long, so they also bound how long the others wait.
    public var timeouts: HTTPTimeouts
    /// The path the API lives under, in front of `/auth/...`.
    public var apiBasePath: String

    /// Makes a configuration.
    /// - Parameters:
    ///   - refreshLeewaySeconds: seconds before expiry that count as expired; 30 unless given.
    ///   - lockPollInterval: the lock's retry pause; 20 ms unless given.
    ///   - timeouts: token request limits; 10 s to connect, 30 s in all unless given.
    ///   - apiBasePath: `/api/v1` unless given.
    public init(
        refreshLeewaySeconds: Int64 = 30, lockPollInterval: Duration = .milliseconds(20),
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(10), lowSpeedTime: .seconds(15), total: .seconds(30)),
        apiBasePath: String = Route.apiBasePath
    ) {
        self.refreshLeewaySeconds = refreshLeewaySeconds
        self.lockPollInterval = lockPollInterval
        self.timeouts = timeouts
        self.apiBasePath = apiBasePath
    }
}
