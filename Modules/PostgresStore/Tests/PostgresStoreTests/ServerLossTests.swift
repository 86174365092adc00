import Glibc
import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSystemTesting
import Testing

@Suite("a server that dies or cannot be reached gives clear errors, never a crash")
struct ServerLossTests {
    /// The message of an `SQLError.io`, or an issue recorded.
    private func ioMessage(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let error = #expect(throws: SQLError.self, sourceLocation: sourceLocation, performing: body)
        guard case .io(_, let message) = try #require(error, sourceLocation: sourceLocation) else {
            Issue.record("not an I/O error: \(String(describing: error))", sourceLocation: sourceLocation)
            return ""
        }
        return message
    }

    @Test(
        "SIGKILL of the whole server: the next call says the connection was lost, later calls that it cannot connect; after a restart the same database object works again and committed rows are there"
    )
    func killedServer() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema, ownServer: true)
        defer { fixture.remove() }
        let database = fixture.database
        try database.execute("INSERT INTO items (writer, n) VALUES ('before', 1)")
        try fixture.server.kill()

        let lost = try ioMessage { _ = try database.query("SELECT count(*) AS n FROM items") }
        #expect(lost.contains("connection to PostgreSQL was lost"), "\(lost)")
        let unreachable = try ioMessage { _ = try database.query("SELECT count(*) AS n FROM items") }
        #expect(unreachable.contains("connecting again failed"), "\(unreachable)")
        #expect(unreachable.contains(fixture.server.socketDirectory), "names where it looked: \(unreachable)")

        try fixture.server.restart()
        #expect(
            try database.query("SELECT writer FROM items").map { try $0.get("writer", as: String.self) } == ["before"])
        try database.execute("INSERT INTO items (writer, n) VALUES ('after', 1)")
        #expect(try fixture.psql("SELECT count(*) FROM items") == "2")
    }

    @Test(
        "SIGKILL of the server inside a transaction: the next statement and the transaction fail clearly, nothing of it is kept"
    )
    func killedInsideTransaction() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema, ownServer: true)
        defer { fixture.remove() }
        let database = fixture.database
        var statementError: SQLError?
        let message = try ioMessage {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('doomed', 1)")
                try fixture.server.kill()
                do {
                    try database.execute("INSERT INTO items (writer, n) VALUES ('doomed', 2)")
                } catch let error as SQLError {
                    statementError = error
                    throw error
                }
            }
        }
        #expect(message.contains("connection to PostgreSQL was lost"), "\(message)")
        #expect(message.contains("the transaction was rolled back"), "\(message)")
        #expect(statementError != nil)
        try fixture.server.restart()
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 0)

        // A body that swallows the error and returns does not make the transaction look committed.
        let swallowed = try ioMessage {
            try database.transaction {
                try database.execute("INSERT INTO items (writer, n) VALUES ('doomed', 3)")
                try fixture.server.kill()
                _ = try? database.execute("INSERT INTO items (writer, n) VALUES ('doomed', 4)")
            }
        }
        #expect(swallowed.contains("the transaction was rolled back"), "\(swallowed)")
        try fixture.server.restart()
        #expect(try database.query("SELECT count(*) AS n FROM items").first?.get("n", as: Int64.self) == 0)
    }

    @Test(
        "SIGKILL of the connection's own server process: the call fails clearly; once the server has recovered the next call works"
    )
    func killedBackend() throws {
        let fixture = try PostgresFixture(schema: PostgresFixture.itemsSchema, ownServer: true)
        defer { fixture.remove() }
        let database = fixture.database
        let backend: Int64 = try #require(try database.query("SELECT pg_backend_pid() AS pid").first).get("pid")
        fixture.server.killProcess(pid_t(backend))
        let message = try ioMessage { _ = try database.query("SELECT 1 AS one") }
        #expect(message.contains("connection to PostgreSQL was lost"), "\(message)")
        // The postmaster ends every connection after a crashed process, recovers, and says it is ready again.
        try fixture.server.waitUntilReady(times: 2)
        #expect(try database.query("SELECT 1 AS one").first?.value("one") == .integer(1))
        let newBackend: Int64 = try #require(try database.query("SELECT pg_backend_pid() AS pid").first).get("pid")
        #expect(newBackend != backend)
    }

    @Test("no server at the address: connecting fails with the reason, and a password in the string is never shown")
    func unreachable() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-pg-none")
        defer { directory.remove() }
        let secret = "hunter2-very-secret"
        let error = #expect(throws: SQLError.self) {
            _ = try PostgresDatabase(
                connection: "postgresql://someone:\(secret)@/db?host=\(directory.path)&port=5999",
                configuration: PostgresConfiguration(connectTimeout: .seconds(2)))
        }
        guard case .io(_, let message) = try #require(error) else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("cannot connect to PostgreSQL"), "\(message)")
        #expect(message.contains(directory.path), "\(message)")
        #expect(!message.contains(secret))
        // A string libpq cannot read is refused without echoing it (libpq's own message would).
        let malformed = #expect(throws: SQLError.self) {
            _ = try PostgresDatabase(connection: "postgresql://someone:%zz\(secret)@/db")
        }
        guard case .misuse(let malformedMessage) = try #require(malformed) else {
            Issue.record("\(String(describing: malformed))")
            return
        }
        #expect(!malformedMessage.contains(secret))
    }
}
