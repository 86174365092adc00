import OutboxInterface

/// The queue in SQLite.
public struct SQLiteOutbox: OutboxQueueing {}
