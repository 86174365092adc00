import ShareKitPostgresStore
import ShareKitSQLInterface
import Testing

@Suite("constraint violations are told apart, like SQLite's")
struct ConstraintTests {
    static let schema = [
        """
        CREATE TABLE parents (id TEXT PRIMARY KEY);
        CREATE TABLE children (
            id BIGINT PRIMARY KEY,
            parent_id TEXT REFERENCES parents(id),
            token TEXT NOT NULL UNIQUE,
            size BIGINT NOT NULL CHECK (size >= 0)
        );
        CREATE UNIQUE INDEX children_by_size_token ON children (size, lower(token));
        INSERT INTO parents VALUES ('p1');
        """
    ]

    private func kind(of body: () throws -> Void) throws -> (SQLConstraintKind, String) {
        let error = #expect(throws: SQLError.self, performing: body)
        guard case .constraint(let kind, let message) = try #require(error) else {
            Issue.record("not a constraint violation: \(String(describing: error))")
            return (.other, "")
        }
        return (kind, message)
    }

    @Test("unique, primary key, foreign key, not null and check each have their kind; no message shows a value")
    func kinds() throws {
        let fixture = try PostgresFixture(schema: Self.schema)
        defer { fixture.remove() }
        let db = fixture.database
        let secret = "sk_live_0123456789abcdef-secret"
        let insert = "INSERT INTO children (id, parent_id, token, size) VALUES (?, ?, ?, ?)"
        try db.execute(insert, [1, "p1", .text(secret), 10])

        let cases: [(SQLConstraintKind, [SQLValue])] = [
            (.primaryKey, [1, "p1", "other-token", 1]),
            (.unique, [2, "p1", .text(secret), 1]),
            (.foreignKey, [3, .text("no-such-parent-\(secret)"), "t3", 1]),
            (.notNull, [4, "p1", nil, 1]),
            (.check, [5, "p1", "t5", -1]),
        ]
        for (expected, values) in cases {
            let (kind, message) = try kind { try db.execute(insert, values) }
            #expect(kind == expected, "\(values)")
            #expect(!message.contains(secret), "\(message)")
            #expect(!"\(SQLError.constraint(kind, message: message))".contains(secret))
        }
        // A unique index that is no constraint is a unique violation too.
        let (kind, _) = try kind { try db.execute(insert, [6, "p1", .text(secret.uppercased()), 10]) }
        #expect(kind == .unique)
        #expect(kind.isDuplicate)
        #expect(try db.query("SELECT count(*) AS n FROM children").first?.get("n", as: Int64.self) == 1)
    }

    @Test("a violation inside a transaction undoes only its statement; the transaction goes on and commits")
    func insideTransaction() throws {
        let fixture = try PostgresFixture(schema: Self.schema)
        defer { fixture.remove() }
        let db = fixture.database
        let insert = "INSERT INTO children (id, parent_id, token, size) VALUES (?, 'p1', ?, 1)"
        let outcome = try db.transaction { () throws -> String in
            try db.execute(insert, [1, "a"])
            do {
                try db.execute(insert, [2, "a"])
                return "no error"
            } catch SQLError.constraint(let kind, _) where kind.isDuplicate {
                // The idempotent-retry path: the row is there, carry on.
                try db.execute(insert, [3, "c"])
                return "duplicate"
            }
        }
        #expect(outcome == "duplicate")
        let other = try fixture.connect()
        defer { try? other.close() }
        #expect(
            try other.query("SELECT id FROM children ORDER BY id").map { try $0.get("id", as: Int64.self) } == [1, 3])
    }
}
