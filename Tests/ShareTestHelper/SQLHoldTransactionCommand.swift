import ShareKitSQLInterface
import ShareKitSQLiteStore

/// `sql-hold-transaction <database> <writer>`: inside one transaction,
/// inserts 10 rows for `writer`, prints `inside` and waits for a line on
/// standard input while holding the write lock; then commits and prints
/// `committed`. Tests use it to meet a held lock, and kill it while
/// `inside` to see that an unfinished transaction leaves nothing behind.
func sqlHoldTransactionCommand(_ arguments: [String]) throws {
    let usage = "sql-hold-transaction <database> <writer>"
    let database = try SQLHelperSupport.open(SQLHelperSupport.argument(arguments, 0, usage: usage))
    let writer = SQLHelperSupport.argument(arguments, 1, usage: usage)
    try database.transaction {
        for n in 0..<10 {
            try database.execute("INSERT INTO items (writer, n) VALUES (?, ?)", [.text(writer), .integer(Int64(n))])
        }
        SQLHelperSupport.say("inside")
        _ = readLine()
    }
    SQLHelperSupport.say("committed")
}
