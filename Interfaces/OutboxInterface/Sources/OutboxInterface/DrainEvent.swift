public import ShareKitCore
public import ShareKitDeliveryInterface

/// One step of the drainer, for the daemon's log and for tests that wait
/// for a step (never message text, never a token).
public enum DrainEvent: Hashable, Sendable {
    /// An item was claimed for an attempt.
    case claimed(UUIDv7, attempt: Int)
    /// An attachment is on the server; its upload id is kept.
    case uploaded(UUIDv7, index: Int, uploadID: String)
    /// The attempt is over: the delivery engine's outcome, as the outbox
    /// carried it out (sent, kept with its next attempt, refused and kept
    /// as failed, or cancelled and due again).
    case delivered(UUIDv7, DeliveryOutcome)
}
