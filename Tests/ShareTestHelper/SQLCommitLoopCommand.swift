import ShareKitSQLInterface
import ShareKitSQLiteStore

/// `sql-commit-loop <database> <writer> <count>`: commits rows `n` = 1, 2, …
/// for `writer`, one transaction each, and prints `committed <n>` after each
/// commit has returned; with `count` 0 it never stops. After `count` rows it
/// prints `waiting` and waits for a line on standard input. Tests kill it with
/// SIGKILL and expect every row it announced to be in the file.
func sqlCommitLoopCommand(_ arguments: [String]) throws {
    let usage = "sql-commit-loop <database> <writer> <count>"
    let database = try SQLHelperSupport.open(SQLHelperSupport.argument(arguments, 0, usage: usage))
    let writer = SQLHelperSupport.argument(arguments, 1, usage: usage)
    let count = Int(SQLHelperSupport.argument(arguments, 2, usage: usage)) ?? 0
    var n: Int64 = 0
    while count == 0 || n < count {
        n += 1
        try database.transaction {
            try database.execute("INSERT INTO items (writer, n) VALUES (?, ?)", [.text(writer), .integer(n)])
        }
        SQLHelperSupport.say("committed \(n)")
    }
    SQLHelperSupport.say("waiting")
    _ = readLine()
}
