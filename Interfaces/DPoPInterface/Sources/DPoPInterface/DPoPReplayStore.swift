/// The server's record of proof ids already used (RFC 9449 section 11.1),
/// so that a captured proof cannot be sent again within its time window.
///
/// Implementations must make the check and the record one atomic step: of
/// two requests with the same key at once, exactly one is the first use.
/// Entries may be forgotten once they expire, since an expired proof fails
/// the `iat` check anyway.
public protocol DPoPReplayStore: Sendable {
    /// Records the first use of a proof id.
    /// - Parameters:
    ///   - key: the proof's replay key (its `jti`, scoped by the verifier to the key's thumbprint).
    ///   - now: the current time, Unix seconds, for dropping expired entries.
    ///   - expiresAt: when the entry may be forgotten, Unix seconds.
    /// - Returns: true when this is the first use (now recorded); false when
    ///   the key was already recorded and has not expired: a replay.
    /// - Throws: the store's error when it cannot answer.
    func recordFirstUse(of key: String, now: Int64, expiresAt: Int64) throws -> Bool
}
