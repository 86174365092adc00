import ShareKitSQLInterface
import ShareKitSQLiteStore

/// `sql-insert <database> <writer> <count>`: inserts `count` rows
/// (`writer`, 0…count-1) into `items`, every other one in its own
/// transaction and the rest as single statements, so both ways of writing
/// meet another process's lock. Prints `done <count>`.
func sqlInsertCommand(_ arguments: [String]) throws {
    let usage = "sql-insert <database> <writer> <count>"
    let database = try SQLHelperSupport.open(SQLHelperSupport.argument(arguments, 0, usage: usage))
    let writer = SQLHelperSupport.argument(arguments, 1, usage: usage)
    let count = Int(SQLHelperSupport.argument(arguments, 2, usage: usage)) ?? 0
    let insert = "INSERT INTO items (writer, n) VALUES (?, ?)"
    for n in 0..<count {
        if n.isMultiple(of: 2) {
            try database.execute(insert, [.text(writer), .integer(Int64(n))])
        } else {
            try database.transaction { try database.execute(insert, [.text(writer), .integer(Int64(n))]) }
        }
    }
    try database.close()
    SQLHelperSupport.say("done \(count)")
}
