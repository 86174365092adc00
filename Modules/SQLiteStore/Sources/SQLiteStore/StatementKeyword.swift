/// Recognises statements that control transactions, which callers may not
/// issue themselves (SQLDatabase documents why).
enum StatementKeyword {
    /// The leading keywords of transaction control statements.
    static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"]

    /// Whether a single statement's text begins a transaction control statement.
    /// - Parameter sql: the text of one statement.
    /// - Returns: true for `BEGIN`, `COMMIT`, `END`, `ROLLBACK`, `SAVEPOINT`, `RELEASE`.
    static func isTransactionControl(_ sql: String) -> Bool {
        transactionControl.contains(firstWord(of: sql).uppercased())
    }

    /// The first word after whitespace and comments (`-- …` and `/* … */`).
    /// - Parameter sql: statement text.
    /// - Returns: the word, empty when there is none.
    static func firstWord(of sql: String) -> Substring {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.firstRange(of: "*/") else { return "" }
                rest = rest[end.upperBound...]
            } else {
                return rest.prefix { $0.isLetter }
            }
        }
    }
}
