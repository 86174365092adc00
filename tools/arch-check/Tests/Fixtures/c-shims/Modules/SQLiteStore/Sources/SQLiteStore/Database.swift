internal import CSQLite

/// A SQLite database.
public struct Database {}
