import Outbox
public import OutboxInterface

/// The client's composition root: the only client app target that names modules.
public enum ClientAssembly {
    /// The outbox, as its interface.
    public static func outbox() -> any OutboxQueueing { SQLiteOutbox() }
}
