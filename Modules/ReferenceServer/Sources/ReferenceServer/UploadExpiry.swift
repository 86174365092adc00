import ShareKitSQLInterface

/// Collects unfinished uploads past their `expires_at`: their rows become
/// `aborted` (keeping `expires_at`, so they still answer `upload_expired`)
/// and their part files are deleted.
///
/// There is no background timer: the sweep runs lazily when a route touches
/// an expired upload, and opportunistically for a few uploads whenever
/// someone creates a new one, so disk use follows upload activity.
enum UploadExpiry {
    /// How many expired uploads one createUpload collects, to keep that request quick.
    static let batch = 16

    /// Collects up to ``batch`` expired uploads of anyone.
    static func sweepSome(_ server: ReferenceServer) throws {
        let ids = try server.db.query(
            "SELECT id FROM uploads WHERE state = 'pending' AND expires_at <= ? LIMIT ?",
            [.integer(server.now), .integer(Int64(batch))]
        ).map { try $0.get("id", as: String.self) }
        try sweep(server, ids: ids)
    }

    /// Collects the given uploads if they are still pending and expired.
    /// Rows change first, in one transaction; files go after the commit, so
    /// a part arriving meanwhile finds the upload no longer pending and is
    /// not renamed into a directory that is being deleted.
    static func sweep(_ server: ReferenceServer, ids: [String]) throws {
        guard !ids.isEmpty else { return }
        let collected = try server.db.transaction {
            var collected: [String] = []
            for id in ids {
                let changed = try server.db.execute(
                    "UPDATE uploads SET state = 'aborted' WHERE id = ? AND state = 'pending' AND expires_at <= ?",
                    [.text(id), .integer(server.now)]
                ).changes
                guard changed > 0 else { continue }
                try server.db.execute("DELETE FROM upload_parts WHERE upload_id = ?", [.text(id)])
                collected.append(id)
            }
            return collected
        }
        for id in collected { UploadFiles.removeAll(server, id) }
    }
}
