/// Where an outbox item is in its life.
public enum OutboxState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Waiting for its next attempt (``OutboxItem/nextAttemptAt``).
    case pending
    /// Claimed by a drainer that is sending it now. The claim has a lease:
    /// when the drainer dies (SIGKILL), the item becomes claimable again once
    /// the lease ran out, and sending it again is safe because the server
    /// answers a repeated `client_msg_id` with the original message.
    case sending
    /// The server holds the message (``OutboxItem/messageID``).
    case sent
    /// The server refused it for good; kept with the reason so a person sees it.
    case failed
}
