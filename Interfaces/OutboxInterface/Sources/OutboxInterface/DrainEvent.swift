public import ShareCore

/// One step of the drainer, for the daemon's log and for tests that wait
/// for a step (never message text, never a token).
public enum DrainEvent: Hashable, Sendable {
    /// An item was claimed for an attempt.
    case claimed(UUIDv7, attempt: Int)
    /// An attachment is on the server; its upload id is kept.
    case uploaded(UUIDv7, index: Int, uploadID: String)
    /// The server holds the message.
    case sent(UUIDv7, messageID: String, replayed: Bool)
    /// A passing failure; the next attempt is due at `nextAttemptAt`.
    case retry(UUIDv7, reason: String, nextAttemptAt: Int64)
    /// The server refused it for good.
    case failed(UUIDv7, code: String, message: String)
}
