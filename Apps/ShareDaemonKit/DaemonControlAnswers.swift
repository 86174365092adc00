import ShareKitDaemonControlInterface

/// What the daemon does for each request of its control socket: `wake`
/// wakes the inbox takeover, the session loop and the push registration
/// (after `share send --queue`, a kept share or a login); `retry` makes
/// every waiting send due now and drains; `status` answers what
/// `share status` shows.
struct DaemonControlAnswers: DaemonControlHandling {
    let daemon: Daemon

    func answer(_ request: DaemonRequest) -> DaemonAnswer {
        switch request {
        case .wake:
            daemon.takeoverWake.wake()
            daemon.sessionWake.wake()
            // `share login` wakes the daemon: a new session needs a new push registration.
            daemon.pushWake.wake()
            return .acknowledged
        case .retry:
            daemon.retryNow()
            daemon.drainWake.wake()
            return .acknowledged
        case .status:
            return .status(daemon.statusAnswer())
        }
    }
}
