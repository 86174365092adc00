import ShareKitSQLInterface

/// The locks a transaction takes on what its decision rests on, so that
/// server processes on one PostgreSQL database run side by side without a
/// deployment-wide lock and still decide as if one after the other
/// (docs/adr/0042-row-locks-on-postgresql.md).
///
/// On SQLite every write transaction already holds the database's one
/// writer lock, so these take nothing there.
extension ReferenceServer {
    /// The first key of the two-key advisory locks of ``lockKeys(_:)``: a
    /// space of the server's own, apart from the migration lock and from
    /// the one-key lock that orders events.
    static let keyLockSpace: Int32 = 0x5348_4B55

    /// Locks names until the transaction ends: another transaction locking
    /// one of them waits for this one's commit, then sees what it wrote.
    /// For decisions that read rows which may not exist yet (a login
    /// counter, the first upload of a user, the children of a session),
    /// where `SELECT … FOR UPDATE` would lock nothing.
    ///
    /// The names are locked in sorted order, so two transactions locking
    /// overlapping sets cannot wait for each other in a circle. Must run
    /// inside a transaction.
    /// - Parameter names: what is being decided on, e.g. `user\nalex`.
    /// - Throws: `SQLError.busy` after the lock timeout.
    func lockKeys(_ names: [String]) throws {
        guard db.dialect == .postgresql, !names.isEmpty else { return }
        // One statement: its select list is evaluated left to right.
        let sorted = Array(Set(names)).sorted()
        let locks = sorted.map { _ in "pg_advisory_xact_lock(\(Self.keyLockSpace), hashtext(?))" }
        _ = try db.query("SELECT " + locks.joined(separator: ", "), sorted.map { .text($0) })
    }
}

extension SQLDialect {
    /// What ends a `SELECT` that locks the rows it reads until the
    /// transaction ends: ` FOR UPDATE` on PostgreSQL; nothing on SQLite,
    /// whose write transactions hold the whole database.
    var forUpdate: String {
        switch self {
        case .sqlite: ""
        case .postgresql: " FOR UPDATE"
        }
    }
}
