import Foundation
import ShareKitPostgresStore
import ShareKitReferenceServer
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The server's one schema description for both engines: the SQLite
/// rendering is the schema SQLite databases already have, a database made
/// by the steps as first shipped goes on working, and PostgreSQL gets the
/// same tables and columns.
@Suite("reference server: one schema for SQLite and PostgreSQL")
struct SchemaTests {
    @Test("the SQLite rendering makes exactly the tables and indexes of the steps as first shipped")
    func sqliteRenderingIsTheShippedSchema() throws {
        let directory = try TemporaryDirectory(prefix: "schema")
        defer { directory.remove() }
        let shipped = try SQLiteDatabase(path: directory.file("shipped.db"))
        defer { try? shipped.close() }
        try shipped.migrate(ShippedSQLiteSchema.steps)
        let rendered = try SQLiteDatabase(path: directory.file("rendered.db"))
        defer { try? rendered.close() }
        try ReferenceServerAdmin.migrate(database: rendered)

        let catalog = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        let expected = try shipped.query(catalog)
        #expect(expected.count > 20)
        #expect(try rendered.query(catalog) == expected)
        #expect(try rendered.query("PRAGMA user_version") == shipped.query("PRAGMA user_version"))
    }

    @Test("a SQLite database made by the shipped steps is served as it is, keeps its data and takes new writes")
    func shippedDatabaseKeepsWorking() async throws {
        let directory = try TemporaryDirectory(prefix: "schema-shipped")
        defer { directory.remove() }
        let made = try SQLiteDatabase(path: directory.file("server.db"))
        try made.migrate(ShippedSQLiteSchema.steps)
        try made.close()

        let first = try ServerProcess(directory: directory)
        let alex = try await TestClient.demo("alex", on: first)
        let sent = try await alex.send(
            "POST", "/api/v1/threads/t1/messages", json: ["client_msg_id": UUID().uuidString, "text": "kept"])
        #expect(sent.status == 201, "\(sent.text)")
        first.stop(removeFiles: false)

        let second = try ServerProcess(directory: directory)
        defer { second.stop() }
        let again = try await TestClient.demo("alex", on: second)
        let listed = try await again.send("GET", "/api/v1/threads/t1/messages")
        #expect(listed.status == 200)
        let texts = (listed.object["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.contains("kept"), "\(listed.text)")
        let revoked = try second.admin(["revoke-write", "--user", "alex", "--channel", "c1"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(revoked.stdout.contains("access.changed event "))
    }

    @Test("a fresh PostgreSQL database gets every table and column SQLite has, and migrating again changes nothing")
    func postgresGetsTheWholeSchema() throws {
        guard ServerEngine.selected.contains(.postgresql) else {
            try Test.cancel("skipped: postgresql is not in SHAREKIT_TEST_ENGINES")
        }
        let server: TemporaryPostgres
        do {
            server = try TemporaryPostgres.shared()
        } catch let unavailable as TemporaryPostgres.Unavailable {
            try Test.cancel("skipped on PostgreSQL: \(unavailable)")
        }
        let name = try server.createDatabase()
        defer { try? server.dropDatabase(name) }
        let postgres = try PostgresDatabase(connection: server.connectionURI(database: name))
        defer { try? postgres.close() }
        try ReferenceServerAdmin.migrate(database: postgres)
        try ReferenceServerAdmin.migrate(database: postgres)

        let directory = try TemporaryDirectory(prefix: "schema-pg")
        defer { directory.remove() }
        let sqlite = try SQLiteDatabase(path: directory.file("server.db"))
        defer { try? sqlite.close() }
        try ReferenceServerAdmin.migrate(database: sqlite)

        let sqliteColumns = try sqlite.query(
            """
            SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
            """
        ).map { "\(try $0.get("t", as: String.self)).\(try $0.get("c", as: String.self))" }.sorted()
        let postgresColumns = try postgres.query(
            """
            SELECT table_name::text AS t, column_name::text AS c FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name <> 'sharekit_schema_version'
            """
        ).map { "\(try $0.get("t", as: String.self)).\(try $0.get("c", as: String.self))" }.sorted()
        #expect(sqliteColumns.count > 80)
        #expect(postgresColumns == sqliteColumns)
        #expect(try postgres.schemaVersion() == 10)
    }
}

/// The SQLite schema's migration steps exactly as they were first shipped,
/// before the schema was written once for both engines: the databases
/// that exist in the field were made by these.
enum ShippedSQLiteSchema {
    static let steps: [String] = [
        """
        CREATE TABLE users (
            username TEXT PRIMARY KEY,
            password_salt BLOB NOT NULL,
            password_hash BLOB NOT NULL,
            password_iterations INTEGER NOT NULL
        );
        CREATE TABLE spaces (id TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE channels (
            id TEXT PRIMARY KEY,
            space_id TEXT NOT NULL REFERENCES spaces(id),
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('chat', 'forum'))
        );
        CREATE TABLE channel_access (
            channel_id TEXT NOT NULL REFERENCES channels(id),
            username TEXT NOT NULL REFERENCES users(username),
            can_read INTEGER NOT NULL,
            can_write INTEGER NOT NULL,
            PRIMARY KEY (channel_id, username)
        );
        CREATE TABLE threads (
            id TEXT PRIMARY KEY,
            channel_id TEXT NOT NULL REFERENCES channels(id),
            title TEXT NOT NULL,
            title_folded TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE messages (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            client_msg_id TEXT NOT NULL,
            sender TEXT NOT NULL REFERENCES users(username),
            channel_id TEXT NOT NULL REFERENCES channels(id),
            thread_id TEXT REFERENCES threads(id),
            text TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX messages_by_thread ON messages(thread_id, seq);
        CREATE INDEX messages_by_channel ON messages(channel_id, seq);
        CREATE TABLE message_attachments (
            message_id TEXT NOT NULL REFERENCES messages(id),
            position INTEGER NOT NULL,
            upload_id TEXT NOT NULL REFERENCES uploads(id),
            PRIMARY KEY (message_id, position)
        );
        CREATE TABLE idempotency (
            username TEXT NOT NULL,
            client_msg_id TEXT NOT NULL,
            request_hash TEXT NOT NULL,
            message_id TEXT NOT NULL,
            thread_id TEXT,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (username, client_msg_id)
        );
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            family_id TEXT NOT NULL,
            parent_id TEXT REFERENCES sessions(id),
            client_component TEXT NOT NULL,
            jkt TEXT NOT NULL,
            access_hash TEXT NOT NULL UNIQUE,
            access_expires_at INTEGER NOT NULL,
            refresh_hash TEXT NOT NULL UNIQUE,
            refresh_expires_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER,
            revoked_reason TEXT
        );
        CREATE INDEX sessions_by_parent ON sessions(parent_id);
        CREATE TABLE used_refresh_tokens (
            refresh_hash TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            used_at INTEGER NOT NULL
        );
        CREATE TABLE dpop_jti (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
        CREATE TABLE dpop_nonces (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
        CREATE TABLE uploads (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            file_name TEXT NOT NULL,
            content_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            part_size INTEGER NOT NULL,
            parts_count INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'complete', 'aborted')),
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        );
        CREATE TABLE upload_parts (
            upload_id TEXT NOT NULL REFERENCES uploads(id),
            part INTEGER NOT NULL,
            size INTEGER NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (upload_id, part)
        );
        CREATE TABLE audit (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            session_id TEXT,
            family_id TEXT,
            at TEXT NOT NULL
        );
        CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            username TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX events_by_user ON events(username, seq);
        CREATE TABLE settings (username TEXT PRIMARY KEY, preview_mode TEXT NOT NULL);
        CREATE TABLE push_registrations (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            session_id TEXT NOT NULL,
            provider TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            environment TEXT NOT NULL,
            app_id TEXT NOT NULL,
            preview_token_hash TEXT NOT NULL UNIQUE,
            jkt TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            disabled_at INTEGER
        );
        CREATE TABLE client_metrics (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            username TEXT NOT NULL,
            name TEXT NOT NULL,
            value REAL NOT NULL,
            unit TEXT NOT NULL,
            attributes TEXT NOT NULL,
            received_at TEXT NOT NULL
        );
        """,
        // Step 2: indexes for the sweeps that run on the hot paths: every
        // createMessage prunes idempotency records past their retention, every
        // createUpload collects a few expired uploads.
        """
        CREATE INDEX idempotency_by_age ON idempotency(created_at);
        CREATE INDEX uploads_by_expiry ON uploads(state, expires_at);
        """,
        // Step 3: every authenticated request prunes expired DPoP jti and
        // nonce rows; without an index that prune scanned the whole table and
        // each request got slower (benchmarks/server).
        """
        CREATE INDEX dpop_jti_by_expiry ON dpop_jti(expires_at);
        CREATE INDEX dpop_nonces_by_expiry ON dpop_nonces(expires_at);
        """,
        // Step 4: a refresh whose answer was lost (see AuthRoutes.refresh):
        // the refresh token whose rotation made the current pair, and when
        // the current pair was first used (NULL: its answer may never have
        // reached anyone).
        """
        ALTER TABLE sessions ADD COLUMN previous_refresh_hash TEXT;
        ALTER TABLE sessions ADD COLUMN pair_used_at INTEGER;
        """,
        // Step 5: listAudit answers only the caller's own records, so each
        // record names its user (older records get it from their session)
        // and, for a throttled login, the client address; failed logins
        // are counted per user, per address and per pair of both (see
        // LoginThrottle); uploads are summed per user and state for the
        // quota of unfinished uploads.
        """
        ALTER TABLE audit ADD COLUMN username TEXT;
        ALTER TABLE audit ADD COLUMN address TEXT;
        UPDATE audit SET username = (SELECT s.username FROM sessions s WHERE s.id = audit.session_id);
        CREATE INDEX audit_by_user ON audit(username, seq);
        CREATE TABLE login_failures (
            key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL,
            last_failure INTEGER NOT NULL
        );
        CREATE INDEX login_failures_by_age ON login_failures(last_failure);
        CREATE INDEX uploads_by_user_state ON uploads(username, state);
        """,
        """
        CREATE TABLE web_sessions (
            token_hash TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        );
        CREATE INDEX web_sessions_by_expiry ON web_sessions(expires_at);
        """,
        """
        ALTER TABLE settings ADD COLUMN notify_enabled INTEGER NOT NULL DEFAULT 1;
        """,
        """
        ALTER TABLE sessions ADD COLUMN previous_refresh_retries INTEGER NOT NULL DEFAULT 0;
        """,
        """
        -- SQLite has one writer at a time: events commit in seq order.
        """,
        """
        ALTER TABLE uploads ADD COLUMN digest_algorithm TEXT NOT NULL DEFAULT 'sha256';
        ALTER TABLE uploads ADD COLUMN verified_by TEXT;
        """,
    ]
}
