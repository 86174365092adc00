public import ShareKitCore

/// Why the outbox could not do something.
public enum OutboxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The queue's database failed (the engine's message; never a bound value).
    case storage(String)
    /// A file of the outbox's own storage could not be written or read.
    case files(path: String, reason: String)
    /// No item has this `client_msg_id`.
    case notFound(UUIDv7)
    /// An item that cannot be queued (for a person: what is wrong with it).
    case invalidItem(String)

    /// The message for a person.
    public var description: String {
        switch self {
        case .storage(let why): return "outbox: the queue's database failed: \(why)"
        case .files(let path, let why): return "outbox: \(path): \(why)"
        case .notFound(let id): return "outbox: no item \(id)"
        case .invalidItem(let why): return "outbox: the item cannot be queued: \(why)"
        }
    }
}
