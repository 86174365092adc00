import Foundation
import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A database that cannot take a write, for real: its disk is full, or
/// another connection holds its write lock. Every request writes (its
/// proof's `jti` at least), so login, refresh and reads must each say
/// "storage, try later" (`507` or `503` with `Retry-After`), never blame
/// the client's proof or token, and keep every token usable for when the
/// database is back (docs/security.md, "A full disk: 507, nothing lost").
@Suite("reference server: a full or locked database")
struct StorageOutageTests {
    @Test(
        "a database whose write lock another connection holds: login, refresh and reads answer 503 with Retry-After",
        arguments: ServerEngine.allCases)
    func lockedDatabase(engine: ServerEngine) async throws {
        // A short lock timeout: each refused request waits for it once.
        let server = try await ServerProcess.start(
            engine, seed: UploadFlow.seed(), extraArguments: ["--db-lock-timeout", "200"])
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let database = try openDatabase(of: server)
        defer { try? database.close() }

        let lock = try await WriteLockHolder(database)
        let answers = try await outageAnswers(alex, server)
        lock.release()
        for (request, answer) in answers {
            #expect(answer.status == 503, "\(request): \(answer.text)")
            #expect(answer.code == "storage_unavailable", "\(request): \(answer.text)")
            #expect(answer.headers["retry-after"] == "1", "\(request)")
            #expect(answer.headers["content-type"] == "application/problem+json", "\(request)")
        }
        try await expectNothingLost(alex, server)
    }

    @Test(
        "a database on a full disk: login, refresh and reads answer 507 insufficient_storage with Retry-After: 30",
        .enabled(if: Tmpfs.canMount, Tmpfs.skipReason))
    func fullDatabase() async throws {
        let directory = try TemporaryDirectory(prefix: "share-server-full-db")
        let disk = directory.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        try Tmpfs.mount(at: disk, bytes: 4 << 20)
        defer {
            Tmpfs.unmount(disk)
            directory.remove()
        }
        // The database and its uploads on the small disk; the server's log beside it, elsewhere.
        let server = try ServerProcess(seed: UploadFlow.seed(), database: disk + "/server.db")
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")

        let filler = disk + "/filler"
        #expect(Tmpfs.fill(filler) > 0)
        let answers = try await outageAnswers(alex, server)
        try FileManager.default.removeItem(atPath: filler)
        for (request, answer) in answers {
            #expect(answer.status == 507, "\(request): \(answer.text)")
            #expect(answer.code == "insufficient_storage", "\(request): \(answer.text)")
            #expect(answer.headers["retry-after"] == "30", "\(request)")
            #expect(answer.headers["content-type"] == "application/problem+json", "\(request)")
        }
        #expect(!server.log.contains(" 500"))
        try await expectNothingLost(alex, server)
    }

    // MARK: Helpers

    /// A connection of the test's own to the server's database.
    private func openDatabase(of server: ServerProcess) throws -> any SQLDatabase {
        switch server.engine {
        case .sqlite: try SQLiteDatabase(path: server.databasePath)
        case .postgresql: try PostgresDatabase(connection: server.databaseArgument)
        }
    }

    /// A login of another client, a refresh of `client`'s pair and a read
    /// with its access token, while the database cannot be written.
    private func outageAnswers(_ client: TestClient, _ server: ServerProcess) async throws
        -> [(String, TestClient.Response)]
    {
        let other = try TestClient(origin: server.origin)
        let login = try await other.login("sam", UploadFlow.passwords["sam"] ?? "")
        let refresh = try await client.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": client.refreshToken ?? ""], token: .some(nil))
        let read = try await client.send("GET", "/api/v1/spaces")
        return [("login", login), ("refresh", refresh), ("read", read)]
    }

    /// Once the database is back: the refresh token that was refused is
    /// still the session's (no reuse), its new pair reads, and the login works.
    private func expectNothingLost(_ client: TestClient, _ server: ServerProcess) async throws {
        let refreshed = try await client.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": client.refreshToken ?? ""], token: .some(nil))
        #expect(refreshed.status == 200, "\(refreshed.text)")
        client.adopt(refreshed)
        #expect(try await client.send("GET", "/api/v1/spaces").status == 200)
        let sam = try TestClient(origin: server.origin)
        #expect(try await sam.login("sam", UploadFlow.passwords["sam"] ?? "").status == 201)
    }
}

/// A transaction of the test's own, on a thread of its own, that keeps the
/// server from writing until ``release()``: SQLite's write lock, or on
/// PostgreSQL (where the server's transactions take no lock of the whole
/// database) every table of the schema locked against writes, as an
/// operator's long `LOCK TABLE` or migration does.
final class WriteLockHolder: @unchecked Sendable {
    private let releasing = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let released = NSLock()
    private var isReleased = false

    /// Begins the transaction and returns once it holds the lock.
    /// - Throws: `SQLError` when the transaction cannot begin.
    init(_ database: any SQLDatabase) async throws {
        let releasing = releasing
        let ended = ended
        try await withCheckedThrowingContinuation { (held: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                var resumed = false
                do {
                    try database.transaction {
                        if database.dialect == .postgresql {
                            // EXCLUSIVE lets reads through and makes every write wait.
                            try database.execute(
                                """
                                DO $$ DECLARE t text; BEGIN
                                    FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
                                        EXECUTE format('LOCK TABLE %I IN EXCLUSIVE MODE', t);
                                    END LOOP;
                                END $$
                                """, [])
                        }
                        resumed = true
                        held.resume()
                        releasing.wait()
                    }
                } catch {
                    if !resumed { held.resume(throwing: error) }
                }
                ended.signal()
            }
        }
    }

    /// Ends the transaction (it commits nothing) and waits until it has.
    func release() {
        let first = released.withLock {
            defer { isReleased = true }
            return !isReleased
        }
        guard first else { return }
        releasing.signal()
        ended.wait()
    }

    deinit { release() }
}
