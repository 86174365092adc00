import Foundation
import ShareKitSQLInterface

/// The reference server's schema for both engines from one description:
/// migration steps applied in order (SQLite counts them in `PRAGMA
/// user_version`, PostgreSQL in `sharekit_schema_version`), written once
/// with a few placeholders for the types the engines spell differently
/// (see docs/adr/0020-one-schema-for-both-engines.md):
///
/// | placeholder  | SQLite                              | PostgreSQL                                       |
/// |--------------|-------------------------------------|--------------------------------------------------|
/// | `{{SERIAL}}` | `INTEGER PRIMARY KEY AUTOINCREMENT` | `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY` |
/// | `{{INT}}`    | `INTEGER`                           | `BIGINT`                                         |
/// | `{{BLOB}}`   | `BLOB`                              | `BYTEA`                                          |
/// | `{{REAL}}`   | `REAL`                              | `DOUBLE PRECISION`                               |
///
/// Everything else is SQL both engines read alike. A table is created after
/// the tables it references (PostgreSQL checks references when it creates a
/// table; SQLite only when it writes a row), which is the one way the SQLite
/// rendering differs from the steps first shipped: the same tables, in
/// another order. Never change what a shipped step makes; append a new one.
enum ServerSchema {
    /// The steps rendered for one engine.
    /// - Parameter dialect: the engine's dialect.
    /// - Returns: the scripts, oldest first, for ``ShareKitSQLInterface/SQLDatabase/migrate(_:)``.
    static func migrations(for dialect: SQLDialect) -> [String] {
        steps.map { render($0, for: dialect) }
    }

    /// One script with its placeholders replaced by the engine's spelling.
    static func render(_ step: String, for dialect: SQLDialect) -> String {
        var script = step
        for (placeholder, sqlite, postgresql) in types {
            script = script.replacingOccurrences(
                of: placeholder, with: dialect == .postgresql ? postgresql : sqlite)
        }
        return script
    }

    /// The placeholders and each engine's spelling.
    static let types: [(placeholder: String, sqlite: String, postgresql: String)] = [
        ("{{SERIAL}}", "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"),
        ("{{INT}}", "INTEGER", "BIGINT"),
        ("{{BLOB}}", "BLOB", "BYTEA"),
        ("{{REAL}}", "REAL", "DOUBLE PRECISION"),
        (
            "{{EVENTS_IN_COMMIT_ORDER}}", "-- SQLite has one writer at a time: events commit in seq order.",
            eventsInCommitOrder
        ),
    ]

    /// The one-key advisory lock that orders the inserts into `events` on
    /// PostgreSQL (a key apart from every other lock of the server's).
    static let eventsLockKey: Int64 = 0x5348_4B54_4556_0001

    /// PostgreSQL's part of step 9: every statement that inserts into
    /// `events`, whoever sends it (a server process, `share-server admin`, a
    /// hand-written `INSERT`), first takes ``eventsLockKey`` until its
    /// transaction ends. A statement-level `BEFORE` trigger fires before
    /// the rows are made, so `seq` (the identity's `nextval`) is drawn with
    /// the lock held: the transaction that draws seq n has committed (or
    /// rolled back) before any other draws n + 1, and a reader that sees
    /// n + 1 already sees n. Without it, n + 1 could commit first, and a
    /// feed reader whose cursor passed it would skip n forever
    /// (docs/adr/0042-row-locks-on-postgresql.md). Only transactions that
    /// write events wait for each other, and only from their first event on.
    static let eventsInCommitOrder = """
        CREATE FUNCTION sharekit_events_in_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(\(eventsLockKey));
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER events_in_commit_order BEFORE INSERT ON events
            FOR EACH STATEMENT EXECUTE FUNCTION sharekit_events_in_commit_order();
        """

    /// The steps with placeholders, oldest first.
    static let steps: [String] = [
        """
        CREATE TABLE users (
            username TEXT PRIMARY KEY,
            password_salt {{BLOB}} NOT NULL,
            password_hash {{BLOB}} NOT NULL,
            password_iterations {{INT}} NOT NULL
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
            can_read {{INT}} NOT NULL,
            can_write {{INT}} NOT NULL,
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
            seq {{SERIAL}},
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
        CREATE TABLE uploads (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            file_name TEXT NOT NULL,
            content_type TEXT NOT NULL,
            size {{INT}} NOT NULL,
            sha256 TEXT NOT NULL,
            part_size {{INT}} NOT NULL,
            parts_count {{INT}} NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'complete', 'aborted')),
            created_at {{INT}} NOT NULL,
            expires_at {{INT}} NOT NULL
        );
        CREATE TABLE message_attachments (
            message_id TEXT NOT NULL REFERENCES messages(id),
            position {{INT}} NOT NULL,
            upload_id TEXT NOT NULL REFERENCES uploads(id),
            PRIMARY KEY (message_id, position)
        );
        CREATE TABLE idempotency (
            username TEXT NOT NULL,
            client_msg_id TEXT NOT NULL,
            request_hash TEXT NOT NULL,
            message_id TEXT NOT NULL,
            thread_id TEXT,
            created_at {{INT}} NOT NULL,
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
            access_expires_at {{INT}} NOT NULL,
            refresh_hash TEXT NOT NULL UNIQUE,
            refresh_expires_at {{INT}} NOT NULL,
            created_at {{INT}} NOT NULL,
            revoked_at {{INT}},
            revoked_reason TEXT
        );
        CREATE INDEX sessions_by_parent ON sessions(parent_id);
        CREATE TABLE used_refresh_tokens (
            refresh_hash TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            used_at {{INT}} NOT NULL
        );
        CREATE TABLE dpop_jti (key TEXT PRIMARY KEY, expires_at {{INT}} NOT NULL);
        CREATE TABLE dpop_nonces (nonce TEXT PRIMARY KEY, expires_at {{INT}} NOT NULL);
        CREATE TABLE upload_parts (
            upload_id TEXT NOT NULL REFERENCES uploads(id),
            part {{INT}} NOT NULL,
            size {{INT}} NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (upload_id, part)
        );
        CREATE TABLE audit (
            seq {{SERIAL}},
            kind TEXT NOT NULL,
            session_id TEXT,
            family_id TEXT,
            at TEXT NOT NULL
        );
        CREATE TABLE events (
            seq {{SERIAL}},
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
            created_at {{INT}} NOT NULL,
            disabled_at {{INT}}
        );
        CREATE TABLE client_metrics (
            seq {{SERIAL}},
            username TEXT NOT NULL,
            name TEXT NOT NULL,
            value {{REAL}} NOT NULL,
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
        ALTER TABLE sessions ADD COLUMN pair_used_at {{INT}};
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
            failures {{INT}} NOT NULL,
            last_failure {{INT}} NOT NULL
        );
        CREATE INDEX login_failures_by_age ON login_failures(last_failure);
        CREATE INDEX uploads_by_user_state ON uploads(username, state);
        """,
        // Step 6: the web reader's sessions (WebReader): a browser's cookie
        // holds a random token, the table only its hash.
        """
        CREATE TABLE web_sessions (
            token_hash TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES users(username),
            created_at {{INT}} NOT NULL,
            expires_at {{INT}} NOT NULL
        );
        CREATE INDEX web_sessions_by_expiry ON web_sessions(expires_at);
        """,
        // Step 7: notify.enabled (1: the person is pushed the messages others write).
        """
        ALTER TABLE settings ADD COLUMN notify_enabled {{INT}} NOT NULL DEFAULT 1;
        """,
        // Step 8: the highest retry number (`retry_attempt`) accepted for
        // the token in previous_refresh_hash (see AuthRoutes.lostRotation):
        // a retry's answer can be lost too, and each number is taken once.
        """
        ALTER TABLE sessions ADD COLUMN previous_refresh_retries {{INT}} NOT NULL DEFAULT 0;
        """,
        // Step 9: events commit in the order of their seq on PostgreSQL,
        // where transactions no longer take turns (see eventsInCommitOrder).
        """
        {{EVENTS_IN_COMMIT_ORDER}}
        """,
        // Step 10: the form of an upload's announced digest (`sha256`, or
        // `sha256-composite`: the SHA-256 of its part digests), and how
        // completion checked it: `file` (the stored parts read again) or
        // `part_digests` (the digests verified as the parts arrived, no
        // read); NULL until the upload is complete.
        """
        ALTER TABLE uploads ADD COLUMN digest_algorithm TEXT NOT NULL DEFAULT 'sha256';
        ALTER TABLE uploads ADD COLUMN verified_by TEXT;
        """,
    ]
}
