import ShareKitSQLInterface

/// One statement of a caller's SQL text, ready for PostgreSQL: its `?`
/// placeholders rewritten to `$1…$n`.
struct SQLStatementText: Sendable, Hashable {
    /// The statement with `$n` parameters, comments and literals unchanged.
    let text: String
    /// How many `?` placeholders it had (the `$n` run from 1 to this).
    let parameterCount: Int
    /// Its first word in upper case (`SELECT`, `INSERT`, `BEGIN`), empty when it has none.
    let keyword: String

    /// Statements whose first word marks them as reads: inside a transaction
    /// they run without a statement savepoint (see ``Connection``).
    static let readKeywords: Set<String> = ["SELECT", "VALUES", "TABLE", "SHOW"]
    /// Statements worth preparing once and keeping (the others, DDL and
    /// utility statements, run unnamed).
    static let preparableKeywords: Set<String> = [
        "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE", "MERGE",
    ]
    /// Statements a caller may not issue: they control the shared
    /// connection's transaction (``PostgresDatabase/transaction(_:)`` does),
    /// drop its prepared statements (`DISCARD`, `DEALLOCATE`), or wait for
    /// data through a channel this interface does not offer (`COPY`).
    static let refusedKeywords: Set<String> = [
        "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "PREPARE", "DISCARD",
        "DEALLOCATE", "COPY",
    ]

    /// Whether the statement only reads (by its first word).
    var isRead: Bool { Self.readKeywords.contains(keyword) }
}

/// Splits SQL text into statements and rewrites the interface's `?`
/// placeholders into PostgreSQL's `$n`.
///
/// A `?` is a placeholder wherever PostgreSQL would read it as an operator
/// character: outside string literals (`'…'`, `E'…'` with backslash
/// escapes, `U&'…'`, dollar-quoted `$tag$…$tag$`), quoted identifiers
/// (`"…"`) and comments (`-- …` and nested `/* … */`). Operators that
/// contain `?` (jsonb's `?`, `?|`, `?&`, the geometric `?-|`) cannot be
/// written; their functions (`jsonb_exists`, …) can. A `$n` parameter written
/// by hand is refused, so a statement never mixes two numbering schemes.
/// `;` outside those constructs ends a statement. The scan assumes
/// `standard_conforming_strings = on`, which ``Connection`` sets.
enum SQLText {
    /// The statements of `sql`, each with its placeholders numbered from 1;
    /// empty statements (only blanks, comments or `;`) are left out.
    /// - Parameter sql: the caller's text.
    /// - Returns: the statements in order.
    /// - Throws: ``ShareKitSQLInterface/SQLError/misuse(message:)`` for a `$n`
    ///   parameter outside literals.
    static func statements(in sql: String) throws -> [SQLStatementText] {
        var scanner = Scanner(Array(sql.utf8))
        return try scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var statements: [SQLStatementText] = []
        // The statement being built.
        var output: [UInt8] = []
        var parameterCount = 0
        var keyword: [UInt8]?
        var hasContent = false
        // Where the last identifier or keyword ended, and whether it was a
        // lone `E`: a quote right after it opens an escape string.
        var wordEnd = -1
        var wordIsE = false

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func run() throws -> [SQLStatementText] {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "'"):
                    let escapes = wordEnd == index && wordIsE
                    copy(to: endOfQuoted(from: index, quote: byte, backslashEscapes: escapes))
                    hasContent = true
                case UInt8(ascii: "\""):
                    copy(to: endOfQuoted(from: index, quote: byte, backslashEscapes: false))
                    hasContent = true
                case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                    copy(to: bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    copy(to: endOfBlockComment(from: index))
                case UInt8(ascii: "$"):
                    try dollar()
                    hasContent = true
                case UInt8(ascii: "?"):
                    parameterCount += 1
                    output += Array("$\(parameterCount)".utf8)
                    index += 1
                    hasContent = true
                case UInt8(ascii: ";"):
                    finishStatement()
                    index += 1
                case _ where Self.startsWord(byte):
                    let start = index
                    var end = index + 1
                    while end < bytes.count, Self.continuesWord(bytes[end]) { end += 1 }
                    if keyword == nil { keyword = Array(bytes[start..<end]) }
                    wordIsE = end - start == 1 && (byte == UInt8(ascii: "E") || byte == UInt8(ascii: "e"))
                    copy(to: end)
                    wordEnd = end
                    hasContent = true
                case _ where Self.isDigit(byte):
                    // A number (`1e5`, `0x1F`, `1_000`): its letters are not a word.
                    var end = index + 1
                    while end < bytes.count, Self.continuesWord(bytes[end]) || bytes[end] == UInt8(ascii: ".") {
                        end += 1
                    }
                    copy(to: end)
                    hasContent = true
                default:
                    if !Self.isBlank(byte) { hasContent = true }
                    copy(to: index + 1)
                }
            }
            finishStatement()
            return statements
        }

        private var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

        private mutating func copy(to end: Int) {
            output += bytes[index..<end]
            index = end
        }

        private mutating func finishStatement() {
            if hasContent {
                let word = keyword.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? ""
                statements.append(
                    SQLStatementText(
                        text: String(decoding: output, as: UTF8.self), parameterCount: parameterCount, keyword: word))
            }
            output = []
            parameterCount = 0
            keyword = nil
            hasContent = false
            wordEnd = -1
        }

        /// The index after a quoted literal or identifier that starts at
        /// `start`; a doubled quote stands for one, and in an escape string
        /// a backslash escapes the next byte. Unterminated: the end of the text.
        private func endOfQuoted(from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
            var position = start + 1
            while position < bytes.count {
                let byte = bytes[position]
                if backslashEscapes && byte == UInt8(ascii: "\\") {
                    position += 2
                } else if byte == quote {
                    if position + 1 < bytes.count && bytes[position + 1] == quote {
                        position += 2
                    } else {
                        return position + 1
                    }
                } else {
                    position += 1
                }
            }
            return bytes.count
        }

        /// The index after a block comment; PostgreSQL's nest.
        private func endOfBlockComment(from start: Int) -> Int {
            var depth = 0
            var position = start
            while position + 1 < bytes.count {
                if bytes[position] == UInt8(ascii: "/") && bytes[position + 1] == UInt8(ascii: "*") {
                    depth += 1
                    position += 2
                } else if bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/") {
                    depth -= 1
                    position += 2
                    if depth == 0 { return position }
                } else {
                    position += 1
                }
            }
            return bytes.count
        }

        /// A `$`: a hand-written parameter (refused), a dollar-quoted string
        /// (copied whole), or an ordinary character.
        private mutating func dollar() throws {
            if let following = next, Self.isDigit(following) {
                throw SQLError.misuse(
                    message: "the statement has a $\(Character(Unicode.Scalar(following)))… parameter; "
                        + "write ? placeholders, which are numbered for PostgreSQL")
            }
            // A tag is `$$` or `$name$`, name a word without `$`.
            var tagEnd = index + 1
            while tagEnd < bytes.count, bytes[tagEnd] != UInt8(ascii: "$") {
                let byte = bytes[tagEnd]
                let fits = tagEnd == index + 1 ? Self.startsWord(byte) : Self.continuesWord(byte)
                guard fits else {
                    copy(to: index + 1)
                    return
                }
                tagEnd += 1
            }
            guard tagEnd < bytes.count else {
                copy(to: index + 1)
                return
            }
            let tag = Array(bytes[index...tagEnd])
            var search = tagEnd + 1
            while search + tag.count <= bytes.count {
                if bytes[search] == UInt8(ascii: "$"), Array(bytes[search..<search + tag.count]) == tag {
                    copy(to: search + tag.count)
                    return
                }
                search += 1
            }
            copy(to: bytes.count)
        }

        static func startsWord(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
                || byte >= 0x80
        }

        static func continuesWord(_ byte: UInt8) -> Bool {
            startsWord(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        static func isBlank(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") || byte == 0x0C
        }
    }
}
