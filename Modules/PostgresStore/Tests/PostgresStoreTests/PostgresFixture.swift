import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSystemTesting
import Testing

/// A database of the test's own on a real PostgreSQL server, and a
/// connection to it; ``remove()`` closes the connection and drops the
/// database (or stops the server, when the test has one of its own).
struct PostgresFixture {
    /// The server: shared by the test process, or the test's own.
    let server: TemporaryPostgres
    /// The connection URI of the test's database.
    let uri: String
    /// The open database.
    let database: PostgresDatabase
    private let ownsServer: Bool
    private let databaseName: String

    /// The schema most suites use: a table of distinct items.
    static let itemsSchema = [
        "CREATE TABLE items (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, writer TEXT NOT NULL, "
            + "n BIGINT NOT NULL, UNIQUE (writer, n))"
    ]

    /// Makes a database (or skips the test where PostgreSQL cannot run),
    /// connects, and migrates to `schema`.
    /// - Parameters:
    ///   - configuration: the connection's settings.
    ///   - schema: migration steps applied at once.
    ///   - ownServer: start a server for this test alone (to kill or restart it).
    init(
        configuration: PostgresConfiguration = PostgresConfiguration(), schema: [String] = [], ownServer: Bool = false
    ) throws {
        ownsServer = ownServer
        server = try Self.server(own: ownServer)
        if ownServer {
            databaseName = "postgres"
            uri = server.connectionURI()
        } else {
            databaseName = try server.createDatabase()
            uri = server.connectionURI(database: databaseName)
        }
        database = try PostgresDatabase(connection: uri, configuration: configuration)
        try database.migrate(schema)
    }

    /// A second connection to the same database.
    /// - Parameter configuration: its settings.
    /// - Returns: the connection.
    func connect(_ configuration: PostgresConfiguration = PostgresConfiguration()) throws -> PostgresDatabase {
        try PostgresDatabase(connection: uri, configuration: configuration)
    }

    /// Runs SQL through `psql` (an independent client) on the test's database.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try server.psql(sql, database: databaseName)
    }

    /// Closes the connection and drops the database, or stops the test's own server.
    func remove() {
        try? database.close()
        if ownsServer {
            server.stop()
        } else {
            try? server.dropDatabase(databaseName)
        }
    }

    /// The shared server or a new one, or cancels the running test with the
    /// reason PostgreSQL cannot run here.
    private static func server(own: Bool) throws -> TemporaryPostgres {
        do {
            return own ? try TemporaryPostgres.start() : try TemporaryPostgres.shared()
        } catch let unavailable as TemporaryPostgres.Unavailable {
            try Test.cancel("skipped: \(unavailable)")
        }
    }
}
