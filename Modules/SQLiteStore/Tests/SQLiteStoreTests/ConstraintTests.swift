import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("constraint violations")
struct ConstraintTests {
    private static let schema = [
        """
        CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INTEGER CHECK (age >= 0));
        CREATE TABLE sessions (token TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id));
        CREATE TABLE requests (client_msg_id TEXT NOT NULL, PRIMARY KEY (client_msg_id)) WITHOUT ROWID;
        """
    ]

    private func kind(of body: () throws -> Void) -> SQLConstraintKind? {
        do {
            try body()
        } catch SQLError.constraint(let kind, _) {
            return kind
        } catch {
            Issue.record("expected a constraint error, got \(error)")
        }
        return nil
    }

    @Test("each kind of violation maps to .constraint with its kind")
    func kinds() throws {
        let temporary = try TemporaryDatabase(schema: Self.schema)
        defer { temporary.remove() }
        let database = temporary.database
        try database.execute("INSERT INTO users (id, email) VALUES (1, 'a@example.com')")
        try database.execute("INSERT INTO requests VALUES ('m-1')")

        #expect(kind { try database.execute("INSERT INTO users (email) VALUES (?)", ["a@example.com"]) } == .unique)
        #expect(
            kind { try database.execute("INSERT INTO users (id, email) VALUES (1, 'b@example.com')") } == .primaryKey)
        #expect(kind { try database.execute("INSERT INTO requests VALUES (?)", ["m-1"]) } == .primaryKey)
        #expect(kind { try database.execute("INSERT INTO users (email) VALUES (NULL)") } == .notNull)
        #expect(kind { try database.execute("INSERT INTO users (email, age) VALUES ('c@example.com', -1)") } == .check)
        // foreign_keys=ON is set at open: SQLite's default would accept this row.
        #expect(kind { try database.execute("INSERT INTO sessions VALUES ('t', 99)") } == .foreignKey)
        #expect(SQLConstraintKind.unique.isDuplicate && SQLConstraintKind.primaryKey.isDuplicate)
        #expect(!SQLConstraintKind.foreignKey.isDuplicate && !SQLConstraintKind.notNull.isDuplicate)
        #expect(try database.query("SELECT count(*) AS n FROM users").first?.get("n", as: Int64.self) == 1)
    }

    @Test("the message names the constraint for a person")
    func message() throws {
        let temporary = try TemporaryDatabase(schema: Self.schema)
        defer { temporary.remove() }
        try temporary.database.execute("INSERT INTO users (email) VALUES ('a@example.com')")
        let error = #expect(throws: SQLError.self) {
            try temporary.database.execute("INSERT INTO users (email) VALUES ('a@example.com')")
        }
        #expect(String(describing: try #require(error)) == "constraint violated: UNIQUE constraint failed: users.email")
    }

    @Test("an idempotent insert inside a transaction: the duplicate is caught and the transaction goes on")
    func idempotentInsideTransaction() throws {
        let temporary = try TemporaryDatabase(schema: Self.schema)
        defer { temporary.remove() }
        let database = temporary.database
        func record(_ id: String) throws -> Bool {
            try database.transaction {
                do {
                    try database.execute("INSERT INTO requests VALUES (?)", [.text(id)])
                    return true
                } catch SQLError.constraint(let kind, _) where kind.isDuplicate {
                    return false  // the original is kept; answer with it
                }
            }
        }
        #expect(try record("m-7") == true)
        #expect(try record("m-7") == false)
        try database.transaction {
            try database.execute("INSERT INTO requests VALUES ('m-8')")
            #expect(throws: SQLError.self) { try database.execute("INSERT INTO requests VALUES ('m-8')") }
            try database.execute("INSERT INTO requests VALUES ('m-9')")
        }
        #expect(try database.query("SELECT client_msg_id FROM requests").count == 3)
    }
}
