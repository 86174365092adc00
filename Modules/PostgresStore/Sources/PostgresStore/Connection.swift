import CShareKitPostgres
import Glibc
import ShareKitSQLInterface

/// One libpq connection with its prepared statements, transaction depth and
/// the results being read.
///
/// Not thread-safe: ``PostgresDatabase`` makes every call under its lock.
///
/// ## Statements inside a transaction
/// PostgreSQL aborts the whole transaction when any statement in it fails,
/// while `SQLDatabase` promises that a failing statement (a duplicate key,
/// say) undoes only itself. So inside a transaction every statement that
/// may write runs under a savepoint of its own, opened after the previous
/// write and rolled back to when it fails. Reads (`SELECT`, `VALUES`,
/// `TABLE`, `SHOW`) run without one; if one fails anyway, the transaction
/// is over and every later statement in it, and its commit, throws. A
/// serialization failure, a deadlock or a lost connection also ends the
/// whole transaction, whatever the body does with the error.
///
/// The savepoints cost as few round trips as the protocol allows, because
/// a transaction of the default isolation holds the database-wide lock
/// while it waits for each one: the first is opened with `BEGIN` (same
/// message), a savepoint that a write used is released together with
/// opening the next (`RELEASE …; SAVEPOINT …`, one message), the last is
/// released by `COMMIT`, and a failed write's `ROLLBACK TO` leaves the
/// savepoint open and unused for the next. A write thus costs one round
/// trip of its own plus one for its savepoint (the first write of a
/// transaction or of a nested one: none), where `SAVEPOINT`, the
/// statement and `RELEASE` took three.
///
/// ## Rows read while the body runs
/// ``run(_:_:mode:)`` in ``Mode/stream(_:)`` hands rows over as they
/// arrive (libpq's single-row mode). If the row handler runs another
/// statement, the rest of the streaming result is read into memory first,
/// since a connection carries one statement at a time.
final class Connection {
    /// What to do with the rows of a statement.
    enum Mode {
        /// Read and drop them.
        case discard
        /// Collect them all, returned by ``run(_:_:mode:)``.
        case collect
        /// Hand each to the closure as it arrives.
        case stream((SQLRow) throws -> Void)
    }

    let configuration: PostgresConfiguration
    /// How many ``transaction(isolation:_:)`` calls are running.
    private(set) var transactionDepth = 0
    /// Rows changed by the most recent `INSERT`, `UPDATE`, `DELETE` or `MERGE`.
    private(set) var changes = 0
    private var handle: OpaquePointer?
    private let password: String?
    /// Set when the current transaction can no longer commit: thrown by
    /// every later statement in it and by its commit.
    private var doomed: SQLError?
    /// Whether the statement savepoint is open, and whether a write used it.
    private var savepointState = StatementSavepoint.closed
    /// Messages sent that wait for the server's answer (statements, prepares,
    /// transaction control), counted so tests can hold the count down.
    private(set) var roundTrips = 0
    /// Statements whose rows are being read, innermost last.
    private var streams: [RowStream] = []
    private var statements: PreparedStatements
    /// Whether a unique constraint (by schema, table and name) is a primary key.
    private var constraintKinds: [String: SQLConstraintKind] = [:]

    /// The name of the savepoint around one statement inside a transaction
    /// (names may repeat in PostgreSQL; the innermost one is meant).
    private static let statementSavepoint = "sharekit_statement"
    /// The table where ``migrate(_:)`` keeps the schema version.
    static let versionTable = "sharekit_schema_version"
    /// The advisory lock (two-key form, a key space apart from the one-key
    /// form of ``PostgresIsolation/exclusive``) that orders migrations.
    private static let migrationLock = (0x5348_4B54, 0x4D49_4752)
    /// How long a process waits for another one's migration: ten minutes,
    /// since a migration that holds the lock is at work, not stuck.
    static let migrationLockTimeoutMilliseconds = 600_000

    /// The statements that open a fresh statement savepoint, sent ahead of
    /// a write in its pipeline.
    private struct SavepointCommands {
        /// Whether the used savepoint is released first.
        let releaseFirst: Bool

        /// The statements, one per message of the pipeline (a pipeline
        /// takes one statement per query).
        var statements: [String] {
            (releaseFirst ? ["RELEASE SAVEPOINT \(Connection.statementSavepoint)"] : [])
                + ["SAVEPOINT \(Connection.statementSavepoint)"]
        }
    }

    /// The statement savepoint of the current transaction level.
    private enum StatementSavepoint {
        /// None is open: the next write opens one.
        case closed
        /// Open, and no write ran under it since it was opened or rolled back to.
        case unused
        /// Open, and a write ran under it: the next write releases it and opens another.
        case used
    }

    /// Whether rows are being read (a close now would cut them off).
    var isReading: Bool { !streams.isEmpty }

    /// Connects and sets up the session.
    /// - Parameters:
    ///   - connectionString: a libpq URI or `key=value` list.
    ///   - configuration: timeouts, isolation, statement cache.
    /// - Throws: ``ShareKitSQLInterface/SQLError/misuse(message:)`` for a string
    ///   libpq cannot read, ``ShareKitSQLInterface/SQLError/io(code:message:)`` when
    ///   the server cannot be reached or refuses the connection.
    init(connectionString: String, configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        statements = PreparedStatements(capacity: configuration.statementCacheCapacity)
        password = try Self.password(in: connectionString)
        let keywords = [
            "connect_timeout", "application_name", "keepalives_idle", "keepalives_interval", "keepalives_count",
            "dbname", "client_encoding",
        ]
        // Keywords before dbname are defaults the string may override; the
        // encoding after it is fixed (values are read and bound as UTF-8).
        let values = [
            String(configuration.connectTimeoutSeconds), configuration.applicationName, "30", "10", "3",
            connectionString, "UTF8",
        ]
        let connection = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw SQLError.io(
                code: ServerFailure.packed(ServerFailure.cannotConnect),
                message: "cannot connect to PostgreSQL: out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = hideSecrets(ServerFailure.oneLine(String(cString: PQerrorMessage(connection))))
            PQfinish(connection)
            throw SQLError.io(
                code: ServerFailure.packed(ServerFailure.cannotConnect),
                message: "cannot connect to PostgreSQL: \(message)")
        }
        // Notices (`relation already exists, skipping`) would go to stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
        do {
            try configureSession()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// The password in a connection string, to keep out of messages.
    private static func password(in connectionString: String) throws -> String? {
        // A bare database name is neither form; libpq takes it as the name.
        let isURI = connectionString.hasPrefix("postgresql://") || connectionString.hasPrefix("postgres://")
        guard isURI || connectionString.contains("=") else { return nil }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &message) else {
            // libpq's message may quote the string, password and all.
            PQfreemem(message)
            throw SQLError.misuse(
                message: "the PostgreSQL connection string is neither a libpq URI nor a key=value list")
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                return String(cString: value)
            }
            option += 1
        }
        return nil
    }

    private func hideSecrets(_ message: String) -> String {
        guard let password, !password.isEmpty else { return message }
        return message.replacing(password, with: "<password>")
    }

    /// The session settings that reading and binding rely on: standard
    /// strings (the placeholder scan), hex `bytea` and shortest exact
    /// floats (the decoding), the lock timeout, UTC and ISO dates (stable
    /// text for `timestamptz`), and no notices.
    private func configureSession() throws {
        guard let handle else { throw closedError }
        guard PQserverVersion(handle) >= 120_000 else {
            throw SQLError.io(
                code: ServerFailure.packed("0A000"),
                message: "PostgreSQL \(PQserverVersion(handle) / 10000) is too old; version 12 or later is needed")
        }
        try control(
            """
            SET lock_timeout = '\(configuration.lockTimeoutMilliseconds)ms'; SET standard_conforming_strings = on;
            SET bytea_output = 'hex'; SET extra_float_digits = 1; SET client_min_messages = warning;
            SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'
            """)
    }

    /// Ends the connection; idempotent.
    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    private var closedError: SQLError { .misuse(message: "the PostgreSQL connection is closed") }

    // MARK: Running statements

    /// Runs the statements of `sql`.
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders, or several when `bindings` is empty.
    ///   - bindings: one value per placeholder.
    ///   - mode: what to do with the rows.
    /// - Returns: the changes, and the rows in ``Mode/collect``.
    /// - Throws: ``ShareKitSQLInterface/SQLError``, or what the row handler throws.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue], mode: Mode) throws -> (SQLExecution, [SQLRow]) {
        let parsed = try SQLText.statements(in: sql)
        if parsed.count > 1 && !bindings.isEmpty {
            throw SQLError.misuse(
                message: "values bind to a single statement, but the text holds \(parsed.count); run them one by one")
        }
        if let refused = parsed.first(where: { SQLStatementText.refusedKeywords.contains($0.keyword) }) {
            throw SQLError.misuse(
                message: "\(refused.keyword) cannot be run through SQLDatabase: transactions are issued by "
                    + "transaction { }, and the connection is shared, so a transaction, a dropped prepared statement "
                    + "or a COPY opened by hand would reach other callers")
        }
        let placeholders = parsed.reduce(0) { $0 + $1.parameterCount }
        guard placeholders == bindings.count else {
            throw SQLError.misuse(
                message: "the statement has \(placeholders) placeholders but \(bindings.count) values were given")
        }
        let parameters = try BoundParameters(bindings)
        if transactionDepth > 0, let doomed { throw doomed }
        try finishLiveStream()
        let handle = try connected()
        var rows: [SQLRow] = []
        for statement in parsed {
            rows += try execute(statement, parameters, bindings, mode: mode)
        }
        if transactionDepth == 0, PQtransactionStatus(handle) != PQTRANS_IDLE {
            _ = try? control("ROLLBACK")
            throw SQLError.misuse(
                message: "a statement opened a transaction outside transaction { }; it was rolled back")
        }
        return (SQLExecution(changes: changes, lastInsertRowID: 0), rows)
    }

    /// The open connection, connecting again when the server dropped it
    /// (only outside a transaction: a transaction dies with its connection).
    private func connected() throws -> OpaquePointer {
        guard let handle else { throw closedError }
        if PQstatus(handle) == CONNECTION_OK { return handle }
        guard transactionDepth == 0, streams.isEmpty else { throw lostConnection(during: "the transaction") }
        PQreset(handle)
        // A pipeline cut off by the lost connection is not carried over.
        if PQpipelineStatus(handle) != PQ_PIPELINE_OFF { _ = PQexitPipelineMode(handle) }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = hideSecrets(ServerFailure.oneLine(String(cString: PQerrorMessage(handle))))
            throw SQLError.io(
                code: ServerFailure.packed(ServerFailure.connectionFailure),
                message: "the connection to PostgreSQL was lost and connecting again failed: \(message)")
        }
        // A new session: no prepared statements, default settings.
        statements.removeAll()
        try configureSession()
        return handle
    }

    /// The error for a connection found lost; inside a transaction it also
    /// ends the transaction (the server rolled it back when the connection went).
    private func lostConnection(during what: String) -> SQLError {
        let detail = handle.map { ServerFailure.oneLine(String(cString: PQerrorMessage($0))) } ?? ""
        let consequence =
            transactionDepth > 0
            ? "the transaction was rolled back"
            : "a write may or may not have taken effect"
        let error = SQLError.io(
            code: ServerFailure.packed(ServerFailure.connectionFailure),
            message: "the connection to PostgreSQL was lost during \(what)"
                + (detail.isEmpty ? "" : " (\(hideSecrets(detail)))")
                + "; \(consequence); the next call connects again")
        if transactionDepth > 0, doomed == nil { doomed = error }
        return error
    }

    /// Sends one statement and reads its results.
    private func execute(
        _ statement: SQLStatementText, _ parameters: BoundParameters, _ bindings: [SQLValue], mode: Mode,
        retryingStalePlan: Bool = true
    ) throws -> [SQLRow] {
        let guarded = transactionDepth > 0 && !statement.isRead
        // The savepoint a write needs rides in the write's own message
        // (pipeline mode) unless its rows are streamed: single-row mode
        // can only be asked for the first query of a pipeline.
        var leading: [String] = []
        if case .stream = mode {
            try flushDeferred()
            if guarded { try openStatementSavepoint() }
        } else {
            // The transaction control not sent yet (BEGIN, a nested level's
            // savepoint, a release) goes in the statement's pipeline too.
            leading = takeDeferred()
            if guarded, let savepoint = pendingStatementSavepoint() { leading += savepoint.statements }
        }
        let stream = RowStream(savepoint: guarded, bindings: bindings)
        if case .discard = mode { stream.discard = true }
        let key = parameters.statementKey(statement.text)
        streams.append(stream)
        defer { streams.removeLast() }
        if send(statement, parameters, key: key, to: stream, after: leading), case .stream = mode, let handle {
            PQsetSingleRowMode(handle)
        }
        do {
            if case .stream(let body) = mode {
                while let row = try nextRow(of: stream) {
                    try body(row)
                }
            } else {
                while !stream.finished { pump(stream) }
            }
        } catch {
            // The row handler stopped early: read the rest so the connection is free.
            stream.discard = true
            while !stream.finished { pump(stream) }
            settle(stream)
            throw error
        }
        settle(stream)
        if let failure = stream.failure {
            // Another process changed a table under a prepared statement
            // (`cached plan must not change result type`): prepare it anew.
            // The error comes before any row, so running the statement again is safe.
            if stream.report?.state == "0A000", stream.report?.message.contains("cached plan") == true,
                let name = statements.remove(key)
            {
                _ = try? control("DEALLOCATE \(name)")
                if retryingStalePlan, transactionDepth == 0 {
                    return try execute(statement, parameters, bindings, mode: mode, retryingStalePlan: false)
                }
            }
            throw failure
        }
        return stream.rows
    }

    /// The statements that open an unused statement savepoint for a write
    /// about to run, sent in the write's own pipeline (``send(_:_:key:to:after:)``);
    /// nil when the open one is unused already (after `BEGIN` or a rolled
    /// back write). Marks the savepoint used: the write runs under it.
    private func pendingStatementSavepoint() -> SavepointCommands? {
        defer { savepointState = .used }
        switch savepointState {
        case .unused: return nil
        case .used: return SavepointCommands(releaseFirst: true)
        case .closed: return SavepointCommands(releaseFirst: false)
        }
    }

    /// Makes sure an unused statement savepoint is open for a write about
    /// to run, and marks it used: no round trip after `BEGIN` or a rolled
    /// back write, one (`RELEASE` of the used one and `SAVEPOINT`) otherwise.
    /// - Throws: ``ShareKitSQLInterface/SQLError`` when the server refuses; the
    ///   transaction then cannot commit.
    private func openStatementSavepoint() throws {
        switch savepointState {
        case .unused:
            break
        case .used, .closed:
            let release = savepointState == .used ? "RELEASE SAVEPOINT \(Self.statementSavepoint); " : ""
            savepointState = .closed
            do {
                try control("\(release)SAVEPOINT \(Self.statementSavepoint)")
            } catch {
                let failure = error as? SQLError ?? .statement(message: "\(error)")
                doomed = doomed ?? failure
                throw failure
            }
        }
        savepointState = .used
    }

    /// Sends a statement: prepared (once, then by name) when it is worth
    /// keeping, unnamed otherwise. With `leading` statements (transaction
    /// control, savepoints), they, the prepare and the statement go in one
    /// pipeline and cost one round trip; the stream then ends the pipeline
    /// when its results are read (``pump(_:)``).
    /// - Returns: false when it could not be sent (the stream holds the failure).
    private func send(
        _ statement: SQLStatementText, _ parameters: BoundParameters, key: String, to stream: RowStream,
        after leading: [String] = []
    ) -> Bool {
        guard let handle else {
            stream.fail(closedError)
            return false
        }
        let count = Int32(parameters.count)
        var preparedName: String?
        var preparing = false
        if statements.capacity > 0, SQLStatementText.preparableKeywords.contains(statement.keyword) {
            if let name = statements.name(for: key) {
                preparedName = name
            } else {
                let (name, evicted) = statements.add(key)
                if let evicted { _ = try? control("DEALLOCATE \(evicted)") }
                preparedName = name
                preparing = true
            }
        }
        if !leading.isEmpty {
            guard PQenterPipelineMode(handle) == 1 else {
                if preparing { _ = statements.remove(key) }
                if PQstatus(handle) != CONNECTION_OK {
                    stream.fail(lostConnection(during: "a statement"))
                } else {
                    stream.fail(nil, connection: handle)
                    stream.savepointFailed = true
                }
                return false
            }
            stream.pipelined = true
            stream.pendingControls = leading.count + (preparing ? 1 : 0)
            for command in leading {
                _ = PQsendQueryParams(handle, command, 0, nil, nil, nil, nil, 0)
            }
        } else if preparing, let preparedName {
            // Outside a pipeline the prepare is a round trip of its own.
            roundTrips += 1
            let result = parameters.types.withUnsafeBufferPointer { types in
                PQprepare(handle, preparedName, statement.text, count, types.baseAddress)
            }
            defer { PQclear(result) }
            guard let result, PQresultStatus(result) == PGRES_COMMAND_OK else {
                _ = statements.remove(key)
                stream.fail(result, connection: handle)
                return false
            }
            preparing = false
        }
        if preparing, let preparedName {
            _ = parameters.types.withUnsafeBufferPointer { types in
                PQsendPrepare(handle, preparedName, statement.text, count, types.baseAddress)
            }
            stream.preparedKey = key
        }
        roundTrips += 1
        let sent = parameters.withArrays { values, lengths, formats in
            if let preparedName {
                return PQsendQueryPrepared(handle, preparedName, count, values, lengths, formats, 0)
            }
            return parameters.types.withUnsafeBufferPointer { types in
                PQsendQueryParams(handle, statement.text, count, types.baseAddress, values, lengths, formats, 0)
            }
        }
        if stream.pipelined {
            _ = PQpipelineSync(handle)
            readPipelineControls(stream)
            guard sent == 1 else {
                // Nothing of the statement's own to read: leave the pipeline now.
                stream.fail(nil, connection: handle)
                endPipeline(handle, stream)
                return false
            }
            return true
        }
        guard sent == 1 else {
            stream.fail(nil, connection: handle)
            return false
        }
        return true
    }

    /// Reads the results of the transaction control (and the prepare) that
    /// precede a pipelined statement, leaving the statement's own results
    /// to ``pump(_:)``. PostgreSQL skips the rest of a pipeline after a
    /// failure, so the statement then fails too: after a failed prepare it
    /// is undone by its savepoint; after failed transaction control the
    /// transaction is over (``settle(_:)``).
    private func readPipelineControls(_ stream: RowStream) {
        guard let handle else { return }
        while stream.pendingControls > 0 {
            stream.pendingControls -= 1
            // The prepare, when there is one, is the last of them.
            let isPrepare = stream.preparedKey != nil && stream.pendingControls == 0
            guard let result = PQgetResult(handle) else { continue }
            if PQresultStatus(result) != PGRES_COMMAND_OK {
                stream.fail(result, connection: handle)
                if isPrepare, let key = stream.preparedKey {
                    // Failed or skipped, the name was never made. A failed
                    // prepare is the statement's failure, undone by its savepoint.
                    _ = statements.remove(key)
                } else {
                    // The write has no savepoint to undo it; settle(_:)
                    // decides once the connection's state is known (a
                    // server going away says so before the socket closes).
                    stream.savepointFailed = true
                }
            }
            PQclear(result)
            // Each statement's results end with a null result.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
    }

    /// The next row of a streaming statement, from memory when a nested
    /// statement made the rest be read early; nil at the end.
    private func nextRow(of stream: RowStream) throws -> SQLRow? {
        while true {
            if let row = stream.takeRow() { return row }
            if stream.finished { return nil }
            pump(stream)
        }
    }

    /// Reads one result of the statement a stream belongs to.
    private func pump(_ stream: RowStream) {
        guard let handle, let result = PQgetResult(handle) else {
            if stream.pipelined, let handle {
                endPipeline(handle, stream)
            }
            stream.finished = true
            return
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        switch status {
        case PGRES_SINGLE_TUPLE, PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            if status != PGRES_COMMAND_OK, !stream.discard, stream.failure == nil {
                // In single-row mode every row is a result of its own; its
                // columns are read once and shared by all rows.
                let decoding = stream.columns.map { ResultDecoding(result, columns: $0) } ?? ResultDecoding(result)
                stream.columns = decoding.columns
                do {
                    for row in 0..<decoding.rowCount { stream.append(try decoding.row(row)) }
                } catch let error as SQLError {
                    stream.fail(error)
                } catch {
                    stream.fail(.statement(message: "\(error)"))
                }
            }
            if status != PGRES_SINGLE_TUPLE { noteChanges(result) }
        case PGRES_EMPTY_QUERY:
            break
        case PGRES_COPY_IN:
            _ = PQputCopyEnd(handle, "COPY is not supported through SQLDatabase")
            stream.fail(.misuse(message: "COPY is not supported through SQLDatabase"))
        case PGRES_COPY_OUT:
            var buffer: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &buffer, 0) > 0 { PQfreemem(buffer) }
            stream.fail(.misuse(message: "COPY is not supported through SQLDatabase"))
        default:
            stream.fail(result, connection: handle)
        }
    }

    /// Reads a pipeline's closing sync and leaves pipeline mode, so the
    /// connection takes ordinary statements again.
    private func endPipeline(_ handle: OpaquePointer, _ stream: RowStream) {
        stream.pipelined = false
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if PQexitPipelineMode(handle) != 1, PQstatus(handle) == CONNECTION_OK {
            stream.fail(.statement(message: "PostgreSQL pipeline could not be ended"))
        }
    }

    private func noteChanges(_ result: OpaquePointer) {
        let command = String(cString: PQcmdStatus(result))
        guard ["INSERT", "UPDATE", "DELETE", "MERGE"].contains(where: command.hasPrefix) else { return }
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Reads the rest of the innermost streaming result into memory, so
    /// the connection can carry another statement.
    private func finishLiveStream() throws {
        guard let live = streams.last, !live.finished else { return }
        while !live.finished { pump(live) }
        settle(live)
    }

    /// Closes a finished statement's savepoint, keeps its work or undoes it,
    /// and decides what its failure means for the transaction.
    private func settle(_ stream: RowStream) {
        guard !stream.settled else { return }
        stream.settled = true
        guard let handle else { return }
        // A write that succeeded keeps its savepoint open (`.used`): the
        // next write or the commit releases it in the same message.
        guard stream.failure != nil else { return }
        if PQstatus(handle) != CONNECTION_OK {
            stream.replaceFailure(lostConnection(during: "a statement"))
            return
        }
        guard transactionDepth > 0 else {
            refineConstraintKind(stream)
            return
        }
        if stream.savepointFailed {
            // Its pipelined savepoint failed: nothing undoes the statement alone.
            savepointState = .closed
            doomed = doomed ?? stream.failure
            return
        }
        if let state = stream.report?.state, ServerFailure.endsTransaction(state) {
            doomed = stream.failure
        } else if stream.savepoint {
            do {
                // ROLLBACK TO keeps the savepoint open, ready for the next write.
                try control("ROLLBACK TO SAVEPOINT \(Self.statementSavepoint)")
                savepointState = .unused
                refineConstraintKind(stream)
            } catch {
                savepointState = .closed
                doomed = error as? SQLError ?? stream.failure
            }
        } else if PQtransactionStatus(handle) == PQTRANS_INERROR {
            doomed = .misuse(
                message: "an earlier statement of this transaction failed and PostgreSQL ended the transaction: "
                    + "\(stream.failure!); throw out of the transaction body instead of continuing")
        }
    }

    /// PostgreSQL reports a primary-key violation as a unique one; the
    /// catalog tells them apart (remembered per constraint).
    private func refineConstraintKind(_ stream: RowStream) {
        guard let report = stream.report, report.state == "23505", let constraint = report.constraint else { return }
        let key = "\(constraint.schema)\u{0}\(constraint.table)\u{0}\(constraint.name)"
        if constraintKinds[key] == nil {
            let type = try? internalQuery(
                """
                SELECT c.contype FROM pg_catalog.pg_constraint c
                JOIN pg_catalog.pg_class r ON r.oid = c.conrelid
                JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
                WHERE n.nspname = $1 AND r.relname = $2 AND c.conname = $3
                """, [constraint.schema, constraint.table, constraint.name])
            guard let type else { return }
            constraintKinds[key] = type == "p" ? .primaryKey : .unique
        }
        stream.replaceFailure(ServerFailure.error(report, constraintKind: constraintKinds[key]))
    }

    // MARK: Transactions

    /// Runs `body` in a transaction, or a savepoint inside one.
    /// - Parameters:
    ///   - isolation: the isolation of an outermost transaction (a nested
    ///     one is a savepoint of the outer).
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after the rollback), or ``ShareKitSQLInterface/SQLError``.
    func transaction<T>(isolation: PostgresIsolation, _ body: () throws -> T) throws -> T {
        let level = transactionDepth
        let savepoint = "sharekit_savepoint_\(level)"
        try finishLiveStream()
        if level == 0 {
            try begin(isolation: isolation)
        } else {
            if let doomed { throw doomed }
            // The outer level's statement savepoint is released first, so a
            // write inside (under a statement savepoint of its own) and a
            // rollback of this level find only their own savepoints. Sent
            // with the level's first statement; a level that runs none
            // sends nothing.
            unsentLevels.append(UnsentLevel(level: level, start: deferred.count, savepointState: savepointState))
            if savepointState != .closed { deferred.append("RELEASE SAVEPOINT \(Self.statementSavepoint)") }
            deferred += ["SAVEPOINT \(savepoint)", "SAVEPOINT \(Self.statementSavepoint)"]
            savepointState = .unused
        }
        transactionDepth += 1
        let value: T
        do {
            value = try body()
        } catch {
            transactionDepth -= 1
            rollback(level: level, savepoint: savepoint)
            throw error
        }
        transactionDepth -= 1
        if let doomed {
            // The body caught the error that ended the transaction and returned.
            rollback(level: level, savepoint: savepoint)
            throw doomed
        }
        try commit(level: level, savepoint: savepoint)
        return value
    }

    /// Starts an outermost transaction: `BEGIN`, the lock of the isolation
    /// and the first statement savepoint, in one message. Without a lock
    /// to take (every isolation but ``PostgresIsolation/exclusive``) they
    /// wait for the transaction's first statement and go in its pipeline.
    private func begin(isolation: PostgresIsolation) throws {
        let handle = try connected()
        savepointState = .closed
        deferred = []
        unsentLevels = []
        if isolation != .exclusive {
            unsentLevels = [UnsentLevel(level: 0, start: 0, savepointState: .closed)]
            deferred = [
                isolation.beginStatement(lockKey: configuration.exclusiveLockKey),
                "SAVEPOINT \(Self.statementSavepoint)",
            ]
            savepointState = .unused
            doomed = nil
            return
        }
        do {
            // The first statement savepoint rides along with BEGIN.
            try control(
                isolation.beginStatement(lockKey: configuration.exclusiveLockKey)
                    + "; SAVEPOINT \(Self.statementSavepoint)")
            savepointState = .unused
        } catch {
            // BEGIN went through but the lock timed out: the transaction is open, and failed.
            if PQtransactionStatus(handle) != PQTRANS_IDLE { _ = try? control("ROLLBACK") }
            throw error
        }
        doomed = nil
    }

    // MARK: Commit groups

    /// Whether a commit group's transaction is open (``beginGroup(isolation:)``).
    private(set) var isInGroup = false
    /// Commits sent (`COMMIT` messages), counted so tests can see groups share them.
    private(set) var commits = 0
    /// Transaction control not sent yet (`BEGIN`, a level's savepoints,
    /// a finished level's `RELEASE`): it goes ahead of the next statement,
    /// in the same message or pipeline, so it costs no round trip of its own.
    private var deferred: [String] = []
    /// The levels whose opening statements are still in `deferred`, outermost first.
    private var unsentLevels: [UnsentLevel] = []

    /// A transaction level whose opening was not sent yet: where its
    /// statements start in `deferred`, and the statement savepoint's state
    /// before it, for a level that ends without running anything.
    private struct UnsentLevel {
        let level: Int
        let start: Int
        let savepointState: StatementSavepoint
    }

    /// Hands over the deferred transaction control, to be sent now.
    private func takeDeferred() -> [String] {
        defer {
            deferred = []
            unsentLevels = []
        }
        return deferred
    }

    /// Sends the deferred transaction control in a message of its own
    /// (before a statement that cannot carry it).
    private func flushDeferred() throws {
        let commands = takeDeferred()
        guard !commands.isEmpty else { return }
        try control(commands.joined(separator: "; "))
    }

    /// Forgets a level that ends before its opening was sent: nothing of it
    /// reached PostgreSQL, so its end needs no message either.
    /// - Returns: whether `level` was such a level.
    private func dropUnsentLevel(_ level: Int) -> Bool {
        guard let last = unsentLevels.last, last.level == level else { return false }
        deferred.removeSubrange(last.start...)
        savepointState = last.savepointState
        unsentLevels.removeLast()
        return true
    }

    /// The error that ended the open transaction, if one did: every member
    /// of a commit group then fails.
    var doomedError: SQLError? { doomed }

    /// Opens the transaction of a commit group; each member then runs
    /// ``transaction(isolation:_:)`` as a savepoint of it.
    /// - Throws: ``ShareKitSQLInterface/SQLError`` as `BEGIN` and the lock do.
    func beginGroup(isolation: PostgresIsolation) throws {
        precondition(transactionDepth == 0 && !isInGroup, "a group opens outside any transaction")
        try finishLiveStream()
        try begin(isolation: isolation)
        transactionDepth = 1
        isInGroup = true
    }

    /// Commits the group's transaction: one WAL flush for every member.
    /// - Throws: ``ShareKitSQLInterface/SQLError`` when it could not commit; nothing of the group was committed.
    func commitGroup() throws {
        precondition(isInGroup && transactionDepth == 1, "no group to commit")
        transactionDepth = 0
        isInGroup = false
        if let doomed {
            rollback(level: 0, savepoint: "")
            throw doomed
        }
        try commit(level: 0, savepoint: "")
    }

    /// Rolls the group's transaction back (a member ended it).
    func rollbackGroup() {
        guard isInGroup else { return }
        transactionDepth = 0
        isInGroup = false
        rollback(level: 0, savepoint: "")
    }

    private func commit(level: Int, savepoint: String) throws {
        try finishLiveStream()
        guard level == 0 else {
            if dropUnsentLevel(level) { return }
            // Releasing the level releases the statement savepoints opened
            // in it. The release goes ahead of the next message (a member
            // of a commit group: the next member's first statement, or the
            // group's COMMIT, which releases it anyway).
            savepointState = .closed
            deferred.append("RELEASE SAVEPOINT \(savepoint)")
            return
        }
        defer { doomed = nil }
        savepointState = .closed
        let nothingSent = dropUnsentLevel(0)
        // COMMIT releases every savepoint: deferred releases need not be sent.
        deferred = []
        unsentLevels = []
        // A transaction that ran no statement has nothing to commit.
        if nothingSent { return }
        guard let handle else { throw closedError }
        roundTrips += 1
        commits += 1
        let result = PQexec(handle, "COMMIT")
        defer { PQclear(result) }
        if let result, PQresultStatus(result) == PGRES_COMMAND_OK {
            guard String(cString: PQcmdStatus(result)) == "COMMIT" else {
                throw SQLError.misuse(
                    message: "the transaction had failed, and PostgreSQL rolled it back instead of committing it")
            }
            return
        }
        if PQstatus(handle) != CONNECTION_OK {
            throw SQLError.io(
                code: ServerFailure.packed(ServerFailure.connectionFailure),
                message: "the connection to PostgreSQL was lost while committing; the transaction may or may not "
                    + "have been committed")
        }
        // A serialization failure or a deferred constraint: the server rolled it back.
        let error = ServerFailure.error(ServerFailure.report(result, connection: handle, bindings: []))
        if PQtransactionStatus(handle) != PQTRANS_IDLE { _ = try? control("ROLLBACK") }
        throw error
    }

    /// Undoes a transaction level. Errors are not reported: the caller is
    /// already throwing the error that made it roll back.
    private func rollback(level: Int, savepoint: String) {
        // Rolling back the level ends the statement savepoints opened in it.
        savepointState = .closed
        if let live = streams.last, !live.finished {
            live.discard = true
            while !live.finished { pump(live) }
        }
        if level > 0, dropUnsentLevel(level) { return }
        if level == 0 {
            // ROLLBACK ends whatever was deferred; a BEGIN never sent needs none.
            deferred = []
            unsentLevels = []
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            if level == 0 { doomed = nil }
            return
        }
        if level == 0 {
            if PQtransactionStatus(handle) != PQTRANS_IDLE { _ = try? control("ROLLBACK") }
            doomed = nil
        } else if doomed == nil {
            // ROLLBACK TO undoes the savepoint's work but keeps it open; RELEASE closes it.
            _ = try? control("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
        }
    }

    // MARK: Schema versions

    /// Applies the migration steps not yet applied, in one transaction under
    /// a migration lock, with the version in ``versionTable``.
    /// - Parameter steps: the scripts, oldest first.
    /// - Returns: the number of steps applied now.
    /// - Throws: ``ShareKitSQLInterface/SQLError/schemaTooNew(version:known:)``, or the error of a failing step.
    func migrate(_ steps: [String]) throws -> Int {
        let applied = try transaction(isolation: .readCommitted) { () throws -> Int in
            // Taken before the version is read: a second process migrating at
            // once waits, then sees the version the first one committed.
            // The wait for another process's migration is not a stuck lock:
            // migrating a new database on a loaded machine can take longer
            // than the lock timeout, and the process that waits would exit
            // "database busy". It gets ``migrationLockTimeoutMilliseconds``; the steps
            // themselves run under the configured timeout again.
            try control(
                "SET LOCAL lock_timeout = '\(Self.migrationLockTimeoutMilliseconds)ms'; "
                    + "SELECT pg_advisory_xact_lock(\(Self.migrationLock.0), \(Self.migrationLock.1)); "
                    + "SET LOCAL lock_timeout = '\(configuration.lockTimeoutMilliseconds)ms'")
            try control("CREATE TABLE IF NOT EXISTS \(Self.versionTable) (version INTEGER NOT NULL)")
            // That ran under the statement savepoint opened with BEGIN: a failing
            // step must not roll back to before it (and release the lock).
            if savepointState == .unused { savepointState = .used }
            let version = try schemaVersion()
            guard version <= steps.count else { throw SQLError.schemaTooNew(version: version, known: steps.count) }
            guard version < steps.count else { return 0 }
            for step in steps[version...] {
                try run(step, [], mode: .discard)
            }
            try control("DELETE FROM \(Self.versionTable); INSERT INTO \(Self.versionTable) VALUES (\(steps.count))")
            return steps.count - version
        }
        if applied > 0 {
            // Tables changed under the prepared statements and constraints.
            _ = try? control("DEALLOCATE ALL")
            statements.removeAll()
            constraintKinds = [:]
        }
        return applied
    }

    /// The schema version ``migrate(_:)`` keeps; 0 before the first migration.
    /// - Returns: the version.
    /// - Throws: ``ShareKitSQLInterface/SQLError``.
    func schemaVersion() throws -> Int {
        try finishLiveStream()
        _ = try connected()
        guard try internalQuery("SELECT to_regclass($1)::text", [Self.versionTable]) != nil else { return 0 }
        let rows = try run("SELECT version FROM \(Self.versionTable)", [], mode: .collect).1
        guard rows.count <= 1 else {
            throw SQLError.corrupt(message: "\(Self.versionTable) holds \(rows.count) rows instead of one")
        }
        return try rows.first?.get("version", as: Int.self) ?? 0
    }

    // MARK: Statements of the connection's own

    /// Runs statements of this connection's own (no placeholders, no
    /// transaction-control check) and fails on any error.
    private func control(_ sql: String) throws {
        guard let handle else { throw closedError }
        roundTrips += 1
        // Deferred transaction control goes first, in the same message.
        let text = deferred.isEmpty ? sql : (takeDeferred() + [sql]).joined(separator: "; ")
        let result = PQexec(handle, text)
        defer { PQclear(result) }
        guard let result, [PGRES_COMMAND_OK, PGRES_TUPLES_OK].contains(PQresultStatus(result)) else {
            if PQstatus(handle) != CONNECTION_OK { throw lostConnection(during: "a statement") }
            throw ServerFailure.error(ServerFailure.report(result, connection: handle, bindings: []))
        }
    }

    /// The first column of the first row of a query of this connection's
    /// own, with text parameters `$1…`.
    private func internalQuery(_ sql: String, _ parameters: [String]) throws -> String? {
        try flushDeferred()
        guard let handle else { throw closedError }
        roundTrips += 1
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else {
            if PQstatus(handle) != CONNECTION_OK { throw lostConnection(during: "a statement") }
            throw ServerFailure.error(ServerFailure.report(result, connection: handle, bindings: []))
        }
        guard PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0 else { return nil }
        return String(cString: PQgetvalue(result, 0, 0))
    }

    /// Lends C strings for the length of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The state of one statement's results while they are read.
final class RowStream {
    /// Whether the statement runs under the statement savepoint.
    let savepoint: Bool
    /// Its bound values, kept out of error messages.
    let bindings: [SQLValue]
    /// Whether its rows are dropped rather than kept.
    var discard = false
    /// Whether libpq has no more results for it.
    var finished = false
    /// Whether its savepoint was released or rolled back.
    var settled = false
    /// Whether it was sent in a pipeline whose sync is still to be read.
    var pipelined = false
    /// Results of the pipeline's statements before it still to be read.
    var pendingControls = 0
    /// Its cache key when it is prepared in its own pipeline.
    var preparedKey: String?
    /// Whether the savepoint statements sent ahead of it in its pipeline failed.
    var savepointFailed = false
    /// The columns of its result, once the first row was read.
    var columns: SQLColumns?
    /// The first failure it met.
    private(set) var failure: SQLError?
    /// What the server said about that failure.
    private(set) var report: ServerFailure.Report?
    private var buffered: [SQLRow] = []
    private var next = 0

    init(savepoint: Bool, bindings: [SQLValue]) {
        self.savepoint = savepoint
        self.bindings = bindings
    }

    /// The rows read and not yet handed out.
    var rows: [SQLRow] { Array(buffered[next...]) }

    func append(_ row: SQLRow) { buffered.append(row) }

    /// The next row read but not handed out yet.
    func takeRow() -> SQLRow? {
        guard next < buffered.count else {
            if next > 0 {
                buffered.removeAll(keepingCapacity: true)
                next = 0
            }
            return nil
        }
        defer { next += 1 }
        return buffered[next]
    }

    /// Records a failure (the first one counts).
    func fail(_ error: SQLError) {
        if failure == nil { failure = error }
    }

    /// Records the failure a result (or the connection) reports.
    func fail(_ result: OpaquePointer?, connection: OpaquePointer) {
        guard failure == nil else { return }
        let report = ServerFailure.report(result, connection: connection, bindings: bindings)
        self.report = report
        failure = ServerFailure.error(report)
    }

    /// Replaces the failure with a more precise one.
    func replaceFailure(_ error: SQLError?) {
        failure = error
    }
}
