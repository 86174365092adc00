public import ShareKitCore
public import ShareKitOutboxInterface
public import ShareKitSQLInterface

/// The outbox on an SQL database (SQLite in the daemon) with the items' own
/// copies of their files in `<directory>/files/<client_msg_id>/` (owner only).
///
/// The `client_msg_id` is the table's primary key, so an item is stored at
/// most once whoever inserts it; a claim (``nextDue(now:)``) is one
/// `BEGIN IMMEDIATE` transaction, so two processes never claim the same item.
public final class SQLiteOutbox: OutboxQueueing {
    /// The outbox directory.
    public let directory: String
    /// Where the items' files are: one folder per `client_msg_id`.
    public let filesRoot: String
    private let database: any SQLDatabase
    /// The page cache of the outbox's connection, in KiB.
    static let pageCacheKiB = 64

    /// Opens the outbox: brings the table up to date, creates the files
    /// directory, and removes the files of items that were sent when a
    /// process died between marking them sent and removing their files.
    /// - Parameters:
    ///   - database: the open database (the daemon's SQLite file).
    ///   - directory: the outbox directory (created owner only when missing).
    /// - Throws: ``ShareKitOutboxInterface/OutboxError/storage(_:)`` when the schema
    ///   cannot be brought up to date, ``ShareKitOutboxInterface/OutboxError/files(path:reason:)``.
    public init(database: any SQLDatabase, directory: String) throws(OutboxError) {
        self.database = database
        self.directory = directory
        filesRoot = directory + "/files"
        _ = try storage { try database.migrate(OutboxSchema.migrations) }
        // The table keeps every sent item, so the file grows with each share;
        // SQLite's page cache (2 MiB by default) would grow with it and keep
        // a long-running daemon's memory rising. The queue's working set is
        // the pending items and the index: a small cache holds it.
        _ = try storage { try database.execute("PRAGMA cache_size = -\(Self.pageCacheKiB)") }
        try OutboxFiles.makeDirectory(directory)
        try OutboxFiles.makeDirectory(filesRoot)
        try removeFilesOfSentItems()
    }

    public func filesDirectory(for clientMsgID: UUIDv7) throws(OutboxError) -> String {
        let path = folder(of: clientMsgID)
        try OutboxFiles.makeDirectory(path)
        return path
    }

    public func enqueue(_ items: [OutboxItem]) throws(OutboxError) -> [Bool] {
        let encoder = OutboxSchema.makeEncoder()
        let rows = try items.map { (item) throws(OutboxError) in try OutboxSchema.bindings(of: item, encoder: encoder) }
        guard let count = rows.first?.count else { return [] }
        let placeholders = Array(repeating: "?", count: count).joined(separator: ", ")
        let sql = "INSERT INTO outbox (\(OutboxSchema.columns)) VALUES (\(placeholders)) ON CONFLICT DO NOTHING"
        return try storage {
            try database.transaction { try rows.map { try database.execute(sql, $0).changes == 1 } }
        }
    }

    public func contains(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool {
        try storage {
            try !database.query("SELECT 1 FROM outbox WHERE client_msg_id = ?", [.text(clientMsgID.description)])
                .isEmpty
        }
    }

    public func item(_ clientMsgID: UUIDv7) throws(OutboxError) -> OutboxItem? {
        try storage {
            try database.query(
                "SELECT \(OutboxSchema.columns) FROM outbox WHERE client_msg_id = ?", [.text(clientMsgID.description)]
            ).first.flatMap { OutboxSchema.read($0, filesRoot: filesRoot).item }
        }
    }

    /// Claims the first due item whose record is valid; a record with a
    /// value out of its range is refused on the way (failed, with the
    /// field in its reason), so it is never sent and never claimed again.
    public func nextDue(now: Int64) throws(OutboxError) -> OutboxItem? {
        try storage {
            try database.transaction { () throws -> OutboxItem? in
                while true {
                    let rows = try database.query(
                        """
                        SELECT \(OutboxSchema.columns) FROM outbox WHERE state = 'pending' AND next_attempt_at <= ?
                        ORDER BY next_attempt_at, created_at, client_msg_id LIMIT 1
                        """, [.integer(now)])
                    guard let row = rows.first else { return nil }
                    let read = OutboxSchema.read(row, filesRoot: filesRoot)
                    guard var item = read.item, read.problem == nil else {
                        try refuse(read, now: now)
                        continue
                    }
                    item = item.countingAttempt()
                    try database.execute(
                        """
                        UPDATE outbox SET state = 'sending', claimed_at = ?, attempts = ?, updated_at = ?
                        WHERE client_msg_id = ?
                        """, [.integer(now), .integer(Int64(item.attempts)), .integer(now), .text(read.id)])
                    item.state = .sending
                    item.updatedAt = now
                    return item
                }
            }
        }
    }

    /// Refuses every waiting record with a value out of its range (the
    /// outbox is opened by each new version over what older ones stored),
    /// so the queue's counts and `share status` say so at once.
    /// - Returns: the ids refused, each with its reason.
    @discardableResult
    public func refuseInvalidRecords(now: Int64) throws(OutboxError) -> [(id: String, reason: String)] {
        try storage {
            try database.transaction { () throws -> [(id: String, reason: String)] in
                var refused: [(id: String, reason: String)] = []
                let rows = try database.query(
                    "SELECT \(OutboxSchema.columns) FROM outbox WHERE state IN ('pending', 'sending')")
                for row in rows {
                    let read = OutboxSchema.read(row, filesRoot: filesRoot)
                    guard let problem = read.problem else { continue }
                    try refuse(read, now: now)
                    refused.append((read.id, OutboxSchema.invalidRecordReason(problem)))
                }
                return refused
            }
        }
    }

    /// Marks one record failed for the problem it was read with (inside the caller's transaction).
    private func refuse(_ read: OutboxSchema.ReadRow, now: Int64) throws {
        try database.execute(
            """
            UPDATE outbox SET state = 'failed', claimed_at = NULL, failure_code = ?, last_error = ?, updated_at = ?
            WHERE client_msg_id = ?
            """,
            [
                .text(OutboxItem.invalidRecordCode), .text(OutboxSchema.invalidRecordReason(read.problem ?? "")),
                .integer(now), .text(read.id),
            ])
    }

    public func releaseClaims(claimedBefore: Int64, now: Int64) throws(OutboxError) -> Int {
        try storage {
            try database.execute(
                """
                UPDATE outbox SET state = 'pending', claimed_at = NULL, next_attempt_at = ?, updated_at = ?
                WHERE state = 'sending' AND claimed_at <= ?
                """, [.integer(now), .integer(now), .integer(claimedBefore)]
            ).changes
        }
    }

    public func recordUploaded(_ clientMsgID: UUIDv7, index: Int, uploadID: String, now: Int64) throws(OutboxError) {
        try storage {
            try database.transaction {
                guard var item = try self.item(clientMsgID) else { throw OutboxError.notFound(clientMsgID) }
                guard item.attachments.indices.contains(index) else {
                    throw OutboxError.invalidItem("item \(clientMsgID) has no attachment \(index)")
                }
                item.attachments[index].completedUploadID = uploadID
                try database.execute(
                    "UPDATE outbox SET attachments = ?, updated_at = ? WHERE client_msg_id = ?",
                    [.text(try OutboxSchema.json(item.attachments)), .integer(now), .text(clientMsgID.description)])
            }
        }
    }

    public func markSent(_ clientMsgID: UUIDv7, messageID: String, replayed: Bool, now: Int64) throws(OutboxError) {
        try update(
            clientMsgID,
            """
            state = 'sent', claimed_at = NULL, message_id = ?, replayed = ?, last_error = NULL, failure_code = NULL,
            updated_at = ?
            """, [.text(messageID), .integer(replayed ? 1 : 0), .integer(now)])
        // The row says sent before the files go: a crash in between leaves
        // files that the next start removes, never an item without its files.
        try OutboxFiles.removeFolder(folder(of: clientMsgID))
        try OutboxFiles.syncDirectory(filesRoot)
    }

    @discardableResult
    public func makeAllDue(now: Int64) throws(OutboxError) -> Int {
        try storage {
            try database.execute(
                "UPDATE outbox SET next_attempt_at = ?, updated_at = ? WHERE state = 'pending' AND next_attempt_at > ?",
                [.integer(now), .integer(now), .integer(now)]
            ).changes
        }
    }

    public func markRetry(_ clientMsgID: UUIDv7, reason: String, nextAttemptAt: Int64, now: Int64) throws(OutboxError) {
        try updateUnlessSent(
            clientMsgID, "state = 'pending', claimed_at = NULL, last_error = ?, next_attempt_at = ?, updated_at = ?",
            [.text(reason), .integer(nextAttemptAt), .integer(now)])
    }

    public func markFailed(_ clientMsgID: UUIDv7, code: String, message: String, now: Int64) throws(OutboxError) {
        try updateUnlessSent(
            clientMsgID, "state = 'failed', claimed_at = NULL, failure_code = ?, last_error = ?, updated_at = ?",
            [.text(code), .text(message), .integer(now)])
    }

    public func list(states: Set<OutboxState>) throws(OutboxError) -> [OutboxItem] {
        let names = OutboxState.allCases.filter(states.contains).map { SQLValue.text($0.rawValue) }
        guard !names.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try storage {
            try database.query(
                "SELECT \(OutboxSchema.columns) FROM outbox WHERE state IN (\(placeholders)) ORDER BY created_at, client_msg_id",
                names
            ).compactMap { OutboxSchema.read($0, filesRoot: filesRoot).item }
        }
    }

    public func counts() throws(OutboxError) -> OutboxCounts {
        try storage {
            var counts = OutboxCounts()
            for row in try database.query("SELECT state, count(*) AS n FROM outbox GROUP BY state") {
                let n: Int = try row.get("n")
                switch OutboxState(rawValue: try row.get("state")) {
                case .pending: counts.pending = n
                case .sending: counts.sending = n
                case .sent: counts.sent = n
                case .failed: counts.failed = n
                case nil: break
                }
            }
            // Within the records' time range, whatever a record holds: the
            // daemon subtracts now from it.
            counts.nextDueAt = try database.query(
                "SELECT min(next_attempt_at) AS due FROM outbox WHERE state = 'pending'"
            ).first?.get("due", as: Int64?.self).map {
                min(max($0, OutboxItem.timeRange.lowerBound), OutboxItem.timeRange.upperBound)
            }
            return counts
        }
    }

    public func remove(_ clientMsgID: UUIDv7) throws(OutboxError) -> Bool {
        let removed = try storage {
            try database.execute("DELETE FROM outbox WHERE client_msg_id = ?", [.text(clientMsgID.description)])
                .changes == 1
        }
        try OutboxFiles.removeFolder(folder(of: clientMsgID))
        return removed
    }

    // MARK: - Internals

    private func folder(of clientMsgID: UUIDv7) -> String { filesRoot + "/" + clientMsgID.description }

    /// Sets columns of one item.
    private func update(_ clientMsgID: UUIDv7, _ assignments: String, _ bindings: [SQLValue]) throws(OutboxError) {
        guard try changeRow(clientMsgID, assignments, bindings, condition: "") == 1 else {
            throw .notFound(clientMsgID)
        }
    }

    /// Runs `UPDATE outbox SET assignments` on the item's row (and
    /// `condition`, an `AND …` clause, if any).
    /// - Returns: the rows changed, 0 or 1.
    private func changeRow(_ clientMsgID: UUIDv7, _ assignments: String, _ bindings: [SQLValue], condition: String)
        throws(OutboxError) -> Int
    {
        try storage {
            try database.execute(
                "UPDATE outbox SET \(assignments) WHERE client_msg_id = ?\(condition)",
                bindings + [.text(clientMsgID.description)]
            ).changes
        }
    }

    /// ``update(_:_:_:)`` for a row that is not sent: sent is final. Two
    /// drainers can hold one item (a send that outlasted its lease, or
    /// `share-daemon --once --lease 0` beside a running daemon); when one
    /// has marked it sent and removed its files, the other's failure (its
    /// files are gone) or retry must not turn a message that is on the
    /// server into "not sent". Such a late mark changes nothing and is no error.
    private func updateUnlessSent(_ clientMsgID: UUIDv7, _ assignments: String, _ bindings: [SQLValue])
        throws(OutboxError)
    {
        if try changeRow(clientMsgID, assignments, bindings, condition: " AND state <> 'sent'") == 1 { return }
        guard try item(clientMsgID)?.state == .sent else { throw .notFound(clientMsgID) }
    }

    /// Folders of sent items, left by a process that died after marking the item sent.
    private func removeFilesOfSentItems() throws(OutboxError) {
        for name in OutboxFiles.names(in: filesRoot) {
            guard let id = try? UUIDv7(string: name), try item(id)?.state == .sent else { continue }
            try OutboxFiles.removeFolder(folder(of: id))
        }
    }

    /// Runs database work, turning its errors into ``OutboxError``.
    private func storage<T>(_ body: () throws -> T) throws(OutboxError) -> T {
        do {
            return try body()
        } catch let error as OutboxError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
