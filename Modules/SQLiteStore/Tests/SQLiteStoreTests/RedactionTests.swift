import Foundation
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSQLiteStoreTesting
import ShareKitSystemTesting
import Testing

@Suite("errors never show bound values")
struct RedactionTests {
    private static let secret = "refresh-token-3f9a8c1d77e2"

    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch {
            return String(describing: error)
        }
        Issue.record("expected an error")
        return nil
    }

    @Test("constraint, type, parameter-count and statement errors with a secret bound")
    func commonErrors() throws {
        let temporary = try TemporaryDatabase(
            schema: ["CREATE TABLE tokens (token TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n > 0)) STRICT"])
        defer { temporary.remove() }
        let database = temporary.database
        let secret: SQLValue = .text(Self.secret)
        try database.execute("INSERT INTO tokens VALUES (?, 1)", [secret])
        let messages = [
            message { try database.execute("INSERT INTO tokens VALUES (?, 1)", [secret]) },  // unique
            message { try database.execute("INSERT INTO tokens VALUES ('other', ?)", [secret]) },  // STRICT type
            message { try database.execute("INSERT INTO tokens VALUES ('x', ?)", [.integer(0)]) },  // check
            message { try database.execute("INSERT INTO tokens VALUES (?, 1)", [secret, secret]) },  // count
            message { try database.execute("INSERT INTO nowhere VALUES (?)", [secret]) },  // no such table
            message { try database.execute("SELECT ?; SELECT 1", [secret]) },  // several statements
            message { _ = try database.query("SELECT ? AS t", [secret]).first?.get("t", as: Int64.self) },
        ]
        for message in messages {
            let text = try #require(message)
            #expect(!text.contains(Self.secret), "\(text)")
            #expect(!text.contains("3f9a8c1d"), "\(text)")
        }
    }

    @Test("a value that SQLite itself echoes (the file name of ATTACH) is removed from the message")
    func engineEcho() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let path = temporary.directory.file("missing-dir/\(Self.secret).sqlite")
        let text = try #require(message { try temporary.database.execute("ATTACH DATABASE ? AS other", [.text(path)]) })
        #expect(!text.contains(Self.secret), "\(text)")
        #expect(text.contains("<bound value>"), "\(text)")
        // The same for a blob that holds text.
        let blobText = try #require(
            message { try temporary.database.execute("ATTACH DATABASE ? AS other", [.blob(Array(path.utf8))]) })
        #expect(!blobText.contains(Self.secret), "\(blobText)")
    }
}
