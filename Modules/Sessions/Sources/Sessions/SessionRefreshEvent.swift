public import ShareKitSessionsInterface

/// What a ``RefreshingTokenProvider`` is doing, for tests and diagnostics.
/// Events carry no token.
///
/// The observer is called synchronously on the refreshing task: blocking in
/// it holds up the refresh (with the cross-process lock held). Tests use
/// that on purpose to stop a process between persisting a new pair and
/// using it.
public enum SessionRefreshEvent: Hashable, Sendable, CustomStringConvertible {
    /// The tokens need a refresh; the provider is about to wait for the
    /// family's cross-process lock. The stored pair was read before this.
    case waitingForLock
    /// The lock is held.
    case lockAcquired
    /// After taking the lock the stored tokens no longer needed a refresh:
    /// another process (or provider) rotated them meanwhile. No request was sent.
    case skipped
    /// A refresh succeeded and the new pair is written durably; the new
    /// access token has not been handed to anyone yet.
    case persisted(sessionID: String)
    /// The server ended the session; its tokens were deleted.
    case dropped(SessionUnavailableReason)

    /// `waiting-for-lock`, `lock-acquired`, `skipped`, `persisted <session>`, `dropped <code>`.
    public var description: String {
        switch self {
        case .waitingForLock: return "waiting-for-lock"
        case .lockAcquired: return "lock-acquired"
        case .skipped: return "skipped"
        case .persisted(let sessionID): return "persisted \(sessionID)"
        case .dropped(let reason): return "dropped \(reason.rawValue)"
        }
    }
}
