internal import COutboxSQLite

/// The outbox's own database.
public struct OutboxDatabase {}
