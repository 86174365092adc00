import SQLInterface

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
/// password is checked, and is not counted. A success clears the user's
/// counter and its pair counter (the owner is back), never the address
/// counter (an attacker could clear it with an account of their own).
/// Each failure that starts or extends a block writes an audit record
/// `login_throttled`.
enum LoginThrottle {
    /// The block an attempt ran into: the answer's `Retry-After`.
    struct Block: Error {
        let retryAfterSeconds: Int64
    }

    static func addressKey(_ address: String) -> String { "address\n" + address }
    static func userKey(_ username: String) -> String { "user\n" + username }
    static func pairKey(_ username: String, _ address: String) -> String { "pair\n" + address + "\n" + username }

    /// Refuses an attempt a live block covers.
    /// - Throws: ``Block`` with the seconds until the block ends.
    static func check(_ server: ReferenceServer, username: String, address: String) throws {
        let policy = server.settings.loginThrottle
        let now = server.now
        var until: Int64 = 0
        if let counter = try counter(server, addressKey(address)),
            let end = blockedUntil(counter, threshold: policy.failuresPerAddress, policy: policy)
        {
            until = max(until, end)
        }
        if let counter = try counter(server, userKey(username)),
            let end = blockedUntil(counter, threshold: policy.failuresPerUser, policy: policy), end > now,
            try self.counter(server, pairKey(username, address)) != nil
        {
            until = max(until, end)
        }
        if until > now { throw Block(retryAfterSeconds: until - now) }
    }

    /// Counts a failed attempt and audits a block it starts or extends.
    /// - Parameter userExists: whether the username is a user's (only then
    ///   does the audit record name it, and show in that user's listAudit).
    static func recordFailure(_ server: ReferenceServer, username: String, address: String, userExists: Bool) throws {
        let policy = server.settings.loginThrottle
        let now = server.now
        try server.db.transaction {
            try server.db.execute(
                "DELETE FROM login_failures WHERE last_failure <= ?", [.integer(now - policy.windowSeconds)])
            let keys: [(String, Int?)] = [
                (addressKey(address), policy.failuresPerAddress), (userKey(username), policy.failuresPerUser),
                (pairKey(username, address), nil),
            ]
            var blocked = false
            for (key, threshold) in keys {
                try server.db.execute(
                    """
                    INSERT INTO login_failures (key, failures, last_failure) VALUES (?, 1, ?)
                    ON CONFLICT(key) DO UPDATE SET failures = login_failures.failures + 1, last_failure = excluded.last_failure
                    """, [.text(key), .integer(now)])
                if let threshold, let counter = try counter(server, key), counter.failures >= Int64(threshold) {
                    blocked = true
                }
            }
            if blocked {
                try Audit.record(
                    server, kind: "login_throttled", username: userExists ? username : nil, address: address)
            }
        }
    }

    /// Clears the user's counter and the pair's after a successful login.
    static func recordSuccess(_ server: ReferenceServer, username: String, address: String) throws {
        try server.db.execute(
            "DELETE FROM login_failures WHERE key IN (?, ?)",
            [.text(userKey(username)), .text(pairKey(username, address))])
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
