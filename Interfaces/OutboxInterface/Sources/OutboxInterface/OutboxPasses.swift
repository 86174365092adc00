public import ShareKitInboxInterface

/// Takes the share inbox over into the outbox: one pass moves every
/// unlocked entry into the queue exactly once (the daemon's takeover).
public protocol OutboxTakingOver: Sendable {
    /// One pass over the inbox. A corrupt entry is quarantined and
    /// reported; an entry that fails for another reason is reported and
    /// left for the next pass; neither stops the others.
    /// - Returns: what happened to each entry.
    /// - Throws: ``ShareKitInboxInterface/InboxError`` only when the inbox itself cannot be read.
    func run() throws(InboxError) -> TakeoverReport
}

/// Sends what the outbox holds: one pass claims each due item, sends it
/// and records the outcome (sent, retry later, refused for good).
public protocol OutboxDraining: Sendable {
    /// One pass: releases stale claims, then sends every item due now.
    /// - Returns: what the pass did, with when the next item is due.
    /// - Throws: ``OutboxError`` when the queue cannot be read or written.
    func drainOnce() async throws(OutboxError) -> DrainReport
}
