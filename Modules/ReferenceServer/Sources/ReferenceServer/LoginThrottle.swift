import ShareKitSQLInterface

/// Throttling of failed logins (docs/security.md, "share-server: quotas,
/// throttling, audit and session lifetimes").
///
/// Three counters of failures live in `login_failures`: per username (from
/// any address), per client address (for any username) and per pair of
/// both. Each is forgotten `window_seconds` after its last failure. A
/// counter at or over its threshold blocks until its last failure plus a
/// delay that starts at `base_delay_seconds` and doubles with each further
/// failure, at most `max_delay_seconds`:
///
/// - the address counter blocks every login from that address;
/// - the user counter blocks logins for that user only from addresses
///   whose pair counter is alive, that is addresses that failed for that
///   user within the window: an address that never failed for the user is
///   not locked out by another address's failures.
///
/// A blocked attempt is answered `429` with `Retry-After` before the
/// password is checked, and is not counted. An attempt that is let through
/// is counted as a failure at once, in the transaction that found it not
/// blocked, before its password is checked: however many guesses arrive
/// together, on however many threads or server processes, each sees the
/// ones before it, so no more are checked than the thresholds allow. A
/// success then clears the user's counter and its pair counter (the owner
/// is back) and gives the address back the one failure it was counted
/// (never more: an attacker could clear it with an account of their own).
/// Each failure that starts or extends a block writes an audit record
/// `login_throttled`.
enum LoginThrottle {
    /// What ``admit(_:username:address:)`` decided: a plain value, since
    /// a blocked attempt is an answer (`429`), not a failure of the server.
    enum Admission {
        /// Let through and counted as a failure, for its outcome.
        case admitted(Attempt)
        /// A live block covers it (nothing counted): the answer's `Retry-After`.
        case blocked(retryAfterSeconds: Int64)
    }

    /// An attempt let through and counted as a failure: what its outcome
    /// (``recordFailure(_:_:userExists:)`` or ``recordSuccess(_:_:)``) needs.
    struct Attempt {
        let username: String
        let address: String
        /// When it was counted (Unix seconds).
        let countedAt: Int64
        /// The address counter's last failure before this attempt, nil when
        /// it had none alive: a success puts it back.
        let previousAddressFailure: Int64?
    }

    static func addressKey(_ address: String) -> String { "address\n" + address }
    static func userKey(_ username: String) -> String { "user\n" + username }
    static func pairKey(_ username: String, _ address: String) -> String { "pair\n" + address + "\n" + username }

    /// Lets an attempt through, counted as a failure, or refuses it when a
    /// live block covers it, in one transaction: the check and the count
    /// cannot be separated by another attempt.
    /// - Returns: the counted attempt, for its outcome, or the seconds
    ///   until the block ends (nothing counted; counters already forgotten
    ///   stay forgotten).
    /// - Throws: `SQLError`.
    static func admit(_ server: ReferenceServer, username: String, address: String) throws -> Admission {
        let policy = server.settings.loginThrottle
        let now = server.now
        return try server.db.transaction {
            // Attempts on the same address or username, on any process, count one after the other.
            try server.lockKeys(keys(username, address))
            try server.db.execute(
                "DELETE FROM login_failures WHERE last_failure <= ?", [.integer(now - policy.windowSeconds)])
            let addressCounter = try counter(server, addressKey(address))
            var until: Int64 = 0
            if let addressCounter,
                let end = blockedUntil(addressCounter, threshold: policy.failuresPerAddress, policy: policy)
            {
                until = max(until, end)
            }
            if let counter = try counter(server, userKey(username)),
                let end = blockedUntil(counter, threshold: policy.failuresPerUser, policy: policy), end > now,
                try self.counter(server, pairKey(username, address)) != nil
            {
                until = max(until, end)
            }
            if until > now { return .blocked(retryAfterSeconds: until - now) }
            for key in keys(username, address) {
                try server.db.execute(
                    """
                    INSERT INTO login_failures (key, failures, last_failure) VALUES (?, 1, ?)
                    ON CONFLICT(key) DO UPDATE SET failures = login_failures.failures + 1, last_failure = excluded.last_failure
                    """, [.text(key), .integer(now)])
            }
            return .admitted(
                Attempt(
                    username: username, address: address, countedAt: now,
                    previousAddressFailure: addressCounter?.last))
        }
    }

    /// The password was wrong: the attempt stays counted, its time is now,
    /// and a block it starts or extends is audited.
    /// - Parameter userExists: whether the username is a user's (only then
    ///   does the audit record name it, and show in that user's listAudit).
    static func recordFailure(_ server: ReferenceServer, _ attempt: Attempt, userExists: Bool) throws {
        let policy = server.settings.loginThrottle
        let thresholds = [policy.failuresPerAddress, policy.failuresPerUser, nil]
        try server.db.transaction {
            try server.lockKeys(keys(attempt.username, attempt.address))
            var blocked = false
            for (key, threshold) in zip(keys(attempt.username, attempt.address), thresholds) {
                // Counted at admission; a success since (the owner's) may
                // have cleared the user and pair counters: then this failure
                // is the first after it.
                try server.db.execute(
                    """
                    INSERT INTO login_failures (key, failures, last_failure) VALUES (?, 1, ?)
                    ON CONFLICT(key) DO UPDATE SET last_failure = excluded.last_failure
                    """, [.text(key), .integer(server.now)])
                if let threshold, let counter = try counter(server, key), counter.failures >= Int64(threshold) {
                    blocked = true
                }
            }
            if blocked {
                try Audit.record(
                    server, kind: "login_throttled", username: userExists ? attempt.username : nil,
                    address: attempt.address)
            }
        }
    }

    /// The password was right: clears the user's counter and the pair's,
    /// and takes the attempt's failure off its address's counter (with the
    /// time of the address's failure before it, unless another attempt
    /// was counted since). Runs in the caller's transaction.
    static func recordSuccess(_ server: ReferenceServer, _ attempt: Attempt) throws {
        try server.lockKeys(keys(attempt.username, attempt.address))
        try server.db.execute(
            "DELETE FROM login_failures WHERE key IN (?, ?)",
            [.text(userKey(attempt.username)), .text(pairKey(attempt.username, attempt.address))])
        let key = addressKey(attempt.address)
        try server.db.execute("DELETE FROM login_failures WHERE key = ? AND failures <= 1", [.text(key)])
        try server.db.execute(
            """
            UPDATE login_failures SET failures = failures - 1,
                last_failure = CASE WHEN last_failure = ? THEN ? ELSE last_failure END
            WHERE key = ?
            """,
            [
                .integer(attempt.countedAt), .integer(attempt.previousAddressFailure ?? attempt.countedAt),
                .text(key),
            ])
    }

    /// The counters an attempt counts in: its address's, its user's, their pair's.
    private static func keys(_ username: String, _ address: String) -> [String] {
        [addressKey(address), userKey(username), pairKey(username, address)]
    }

    /// A live counter: its failures and the time of the last one.
    private static func counter(_ server: ReferenceServer, _ key: String) throws -> (failures: Int64, last: Int64)? {
        guard
            let row = try server.db.query(
                "SELECT failures, last_failure FROM login_failures WHERE key = ? AND last_failure > ?",
                [.text(key), .integer(server.now - server.settings.loginThrottle.windowSeconds)]
            ).first
        else { return nil }
        return (try row.get("failures", as: Int64.self), try row.get("last_failure", as: Int64.self))
    }

    /// When a counter's block ends, or nil when it is under its threshold.
    static func blockedUntil(
        _ counter: (failures: Int64, last: Int64), threshold: Int, policy: InstanceSettings.LoginThrottlePolicy
    ) -> Int64? {
        guard counter.failures >= Int64(threshold) else { return nil }
        let doublings = min(counter.failures - Int64(threshold), 32)
        let delay = min(policy.baseDelaySeconds << doublings, policy.maxDelaySeconds)
        return counter.last + delay
    }
}
