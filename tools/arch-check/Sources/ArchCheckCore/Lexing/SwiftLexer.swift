/// A small lexer for Swift source: enough to find declarations reliably,
/// not a full Swift tokenizer.
///
/// Why a lexer and not a regular expression: an `import` inside a comment,
/// a string, a multi-line string or a raw string is not an import, and text
/// inside those can span lines and contain anything (`"""` with `import X` on
/// its own line is the classic false positive of line-based scanners). The
/// lexer consumes each comment and literal as a whole, so later stages only
/// ever see code.
///
/// Handled: `//` and nested `/* */` comments, a `#!` line at the start,
/// string literals with escapes and `\( … )` interpolation (nested to any
/// depth, including strings inside interpolations), multi-line `"""`
/// strings, raw strings with any number of `#`, extended regex literals
/// `#/ … /#`, back-quoted identifiers. Not handled: bare `/…/` regex
/// literals (they are lexed as punctuation; only a `"` inside one could
/// confuse the lexer, and the damage ends at the end of that line).
public struct SwiftLexer: Sendable {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    /// Line on which the last emitted token ended (0 before the first).
    private var lastTokenEndLine = 0

    /// Creates a lexer over `source`.
    public init(source: String) {
        self.bytes = Array(source.utf8)
    }

    /// `source` without a leading UTF-8 byte order mark. Editors on Windows
    /// write one; the compiler skips it, and a lexer that kept it would see
    /// a stray character in front of line 1 and miss an `import` there.
    /// Columns then count from the first character after it, as editors show.
    public static func withoutByteOrderMark(_ source: String) -> String {
        source.unicodeScalars.first == "\u{FEFF}" ? String(source.unicodeScalars.dropFirst()) : source
    }

    /// Lexes the whole source.
    ///
    /// Never fails: malformed input (an unterminated string or comment) ends
    /// the token or the stream where the compiler would have complained.
    /// - Returns: all tokens in source order.
    public static func tokenize(_ source: String) -> [Token] {
        var lexer = SwiftLexer(source: source)
        var tokens: [Token] = []
        while let token = lexer.next() {
            tokens.append(token)
        }
        return tokens
    }

    /// The next token of the top-level stream, or `nil` at the end.
    ///
    /// Tokens inside string interpolations are consumed as part of their
    /// string and never returned.
    public mutating func next() -> Token? {
        guard var token = rawNext() else { return nil }
        token.isFirstOnLine = token.line > lastTokenEndLine
        lastTokenEndLine = line
        return token
    }

    // MARK: - Scanning

    private var atEnd: Bool { position >= bytes.count }

    private func peek(_ offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    /// Moves one byte on, keeping line bookkeeping right.
    private mutating func advance() {
        if bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    private mutating func advance(by count: Int) {
        for _ in 0..<count where !atEnd { advance() }
    }

    private static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierHead(byte) || isDigit(byte)
    }

    /// Skips whitespace and comments; `true` if anything is left.
    private mutating func skipTrivia() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C, 0:
                advance()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                skipLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "#") where position == 0 && peek(1) == UInt8(ascii: "!"):
                skipLineComment()  // a shebang line, as in a script
            default:
                return
            }
        }
    }

    private mutating func skipLineComment() {
        while let byte = peek(), byte != UInt8(ascii: "\n") { advance() }
    }

    /// Block comments nest in Swift: `/* a /* b */ still a comment */`.
    private mutating func skipBlockComment() {
        var depth = 0
        while !atEnd {
            if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance(by: 2)
            } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance(by: 2)
                if depth == 0 { return }
            } else {
                advance()
            }
        }
    }

    private func text(from start: Int, to end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func rawNext() -> Token? {
        skipTrivia()
        guard let byte = peek() else { return nil }
        let start = position
        let startLine = line
        let startColumn = position - lineStart + 1

        func make(_ kind: Token.Kind, text: String? = nil, value: String? = nil, escaped: Bool = false) -> Token {
            Token(
                kind: kind, text: text ?? self.text(from: start, to: position), stringValue: value,
                isEscaped: escaped, line: startLine, column: startColumn,
                startOffset: start, endOffset: position, isFirstOnLine: false)
        }

        if Self.isIdentifierHead(byte) {
            while let next = peek(), Self.isIdentifierBody(next) { advance() }
            return make(.identifier)
        }
        if Self.isDigit(byte) {
            scanNumber()
            return make(.number)
        }
        if byte == UInt8(ascii: "`") {
            advance()
            let nameStart = position
            while let next = peek(), next != UInt8(ascii: "`"), next != UInt8(ascii: "\n") { advance() }
            let name = text(from: nameStart, to: position)
            if peek() == UInt8(ascii: "`") { advance() }
            return make(.identifier, text: name, escaped: true)
        }
        if byte == UInt8(ascii: "\"") {
            let value = scanString(hashes: 0)
            return make(.stringLiteral, value: value)
        }
        if byte == UInt8(ascii: "#") {
            var hashes = 0
            while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
            if peek(hashes) == UInt8(ascii: "\"") {
                advance(by: hashes)
                let value = scanString(hashes: hashes)
                return make(.stringLiteral, value: value)
            }
            if peek(hashes) == UInt8(ascii: "/") {
                advance(by: hashes)
                scanExtendedRegex(hashes: hashes)
                return make(.stringLiteral)
            }
            if hashes == 1, let next = peek(1), Self.isIdentifierHead(next) {
                advance()
                while let next = peek(), Self.isIdentifierBody(next) { advance() }
                return make(.poundKeyword)
            }
            advance()
            return make(.punctuation)
        }
        // Any other byte is one punctuation token. A multi-byte character
        // outside an identifier is not valid Swift; keep its bytes together.
        advance()
        if byte >= 0x80 {
            while let next = peek(), next & 0xC0 == 0x80 { advance() }
        }
        return make(.punctuation)
    }

    /// Numbers: digits, `_`, letters (hex, exponents) and a `.` followed by a
    /// digit (`1.5`, but `1.description` stays three tokens).
    private mutating func scanNumber() {
        while let next = peek() {
            if Self.isIdentifierBody(next) {
                advance()
            } else if next == UInt8(ascii: "."), let after = peek(1), Self.isDigit(after) {
                advance()
            } else {
                return
            }
        }
    }

    /// Scans a string literal whose opening `"` is at the current position
    /// (any leading `#` already consumed); `hashes` is the raw-string depth.
    ///
    /// - Returns: the literal's contents when it is a single-line literal
    ///   without escapes or interpolation, else `nil`.
    private mutating func scanString(hashes: Int) -> String? {
        let isMultiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        advance(by: isMultiline ? 3 : 1)
        let contentStart = position
        var isSimple = !isMultiline

        while let byte = peek() {
            if byte == UInt8(ascii: "\n") && !isMultiline {
                return nil  // unterminated: stop at the line end, as the compiler does
            }
            if byte == UInt8(ascii: "\\") && hashesFollow(at: position + 1, count: hashes) {
                isSimple = false
                advance(by: 1 + hashes)
                if peek() == UInt8(ascii: "(") {
                    advance()
                    skipInterpolation()
                } else if !atEnd {
                    advance()  // the escaped character (or a line continuation)
                }
                continue
            }
            if byte == UInt8(ascii: "\"") {
                let quotes = isMultiline ? 3 : 1
                let closes =
                    (0..<quotes).allSatisfy { peek($0) == UInt8(ascii: "\"") }
                    && hashesFollow(at: position + quotes, count: hashes)
                if closes {
                    let contentEnd = position
                    advance(by: quotes + hashes)
                    return isSimple ? text(from: contentStart, to: contentEnd) : nil
                }
            }
            advance()
        }
        return nil
    }

    private func hashesFollow(at index: Int, count: Int) -> Bool {
        (0..<count).allSatisfy { index + $0 < bytes.count && bytes[index + $0] == UInt8(ascii: "#") }
    }

    /// Consumes the code of an interpolation up to its closing `)`. The code
    /// is lexed with the same rules, so strings and comments nested inside
    /// it (which may contain parentheses) are skipped correctly.
    private mutating func skipInterpolation() {
        var depth = 1
        while let token = rawNext() {
            if token.isPunctuation("(") {
                depth += 1
            } else if token.isPunctuation(")") {
                depth -= 1
                if depth == 0 { return }
            }
        }
    }

    /// Extended regex literal `#/ … /#` (any number of `#`), which may span
    /// lines; its contents are never code.
    private mutating func scanExtendedRegex(hashes: Int) {
        advance()  // the opening "/"
        while let byte = peek() {
            if byte == UInt8(ascii: "/") && hashesFollow(at: position + 1, count: hashes) {
                advance(by: 1 + hashes)
                return
            }
            advance()
        }
    }
}
