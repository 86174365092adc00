/// One lexical token of Swift (or module map) source, with its position.
///
/// The lexer keeps only what the checker needs: identifiers (keywords
/// included, because whether `import` is a keyword depends on where it
/// stands), string literals (as one opaque token, so that nothing inside a
/// string can ever look like code), `#` directives and single punctuation
/// characters. Positions are 1-based; columns count UTF-8 bytes, as the
/// compiler's diagnostics do, so `file:line:col` output lines up with them.
public struct Token: Sendable, Equatable {
    /// What sort of token this is.
    public enum Kind: Sendable, Equatable {
        /// A word: identifier or keyword, or a back-quoted identifier.
        case identifier
        /// A number literal (kept only so it is not mistaken for anything else).
        case number
        /// A string literal of any form: `"…"`, `"""…"""`, `#"…"#`.
        case stringLiteral
        /// A `#word`: `#if`, `#elseif`, `#else`, `#endif`, `#available`, …
        case poundKeyword
        /// One punctuation or operator character: `(`, `.`, `@`, `;`, …
        case punctuation
    }

    /// The token's sort.
    public let kind: Kind
    /// The token's text as written (for a string literal: the whole literal
    /// with its delimiters; for a back-quoted identifier: without the quotes).
    public let text: String
    /// The contents of a string literal that has no escapes and no
    /// interpolation (`"Messages"` gives `Messages`); `nil` otherwise.
    public let stringValue: String?
    /// Whether an identifier was written in back quotes (`` `import` `` is
    /// an identifier, never the keyword).
    public let isEscaped: Bool
    /// 1-based line of the token's first character.
    public let line: Int
    /// 1-based column (UTF-8 bytes) of the token's first character.
    public let column: Int
    /// Byte offset of the token's first character in the source.
    public let startOffset: Int
    /// Byte offset just past the token's last character.
    public let endOffset: Int
    /// Whether no earlier token ends on this token's line: the token starts
    /// a line, which is where declarations such as `import` start.
    public internal(set) var isFirstOnLine: Bool

    /// Creates a token; the lexer is the usual source of tokens, tests make
    /// their own.
    public init(
        kind: Kind, text: String, stringValue: String? = nil, isEscaped: Bool = false,
        line: Int, column: Int, startOffset: Int, endOffset: Int, isFirstOnLine: Bool
    ) {
        self.kind = kind
        self.text = text
        self.stringValue = stringValue
        self.isEscaped = isEscaped
        self.line = line
        self.column = column
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.isFirstOnLine = isFirstOnLine
    }

    /// Whether this is the unescaped word `word` (a keyword in that position).
    public func isWord(_ word: String) -> Bool {
        kind == .identifier && !isEscaped && text == word
    }

    /// Whether this is the punctuation character `character`.
    public func isPunctuation(_ character: String) -> Bool {
        kind == .punctuation && text == character
    }
}
