/// Finds the `import` declarations of a Swift source file.
///
/// Works on the token stream of ``SwiftLexer``, so comments and literals are
/// already out of the way. An import is recognised only where a declaration
/// can start: at the start of a line or after a `;`, with optional
/// attributes (which may stand on earlier lines), an optional access level,
/// the keyword, an optional declaration kind and a dotted module path.
/// `#if`/`#elseif`/`#else`/`#endif` are followed so each import knows the
/// conditions it was written under.
public enum ImportScanner {
    /// Access levels that may precede `import` (SE-0409).
    static let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
    /// Declaration kinds of a scoped import (`import struct Foundation.URL`).
    static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// Scans `source` for import declarations.
    /// - Parameter source: the text of one Swift file (a leading byte
    ///   order mark is skipped).
    /// - Returns: the imports in source order.
    public static func imports(in source: String) -> [ImportDeclaration] {
        let text = SwiftLexer.withoutByteOrderMark(source)
        return imports(in: SwiftLexer.tokenize(text), source: text)
    }

    /// Scans an already lexed file.
    /// - Parameters:
    ///   - tokens: the tokens of `source`, from ``SwiftLexer``.
    ///   - source: the text the tokens came from (for `#if` condition text).
    /// - Returns: the imports in source order.
    public static func imports(in tokens: [Token], source: String) -> [ImportDeclaration] {
        let utf8 = Array(source.utf8)
        var conditions = ConditionStack()
        var found: [ImportDeclaration] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .poundKeyword, token.isFirstOnLine,
                ["#if", "#elseif", "#else", "#endif"].contains(token.text)
            {
                let (condition, next) = conditionText(tokens, after: index, utf8: utf8)
                conditions.apply(directive: token.text, condition: condition)
                index = next
                continue
            }
            let startsStatement = token.isFirstOnLine || (index > 0 && tokens[index - 1].isPunctuation(";"))
            if startsStatement,
                let (declaration, next) = parseImport(tokens, at: index, utf8: utf8, conditions: conditions.current)
            {
                found.append(declaration)
                index = next
                continue
            }
            index += 1
        }
        return found
    }

    /// The text of an `#if`/`#elseif` condition: the tokens after the
    /// directive up to the end of its line.
    private static func conditionText(_ tokens: [Token], after index: Int, utf8: [UInt8]) -> (String, Int) {
        var end = index + 1
        while end < tokens.count && !tokens[end].isFirstOnLine { end += 1 }
        guard end > index + 1 else { return ("", end) }
        let text = String(decoding: utf8[tokens[index + 1].startOffset..<tokens[end - 1].endOffset], as: UTF8.self)
        return (text, end)
    }

    /// Tries to read an import declaration starting at `start`.
    /// - Returns: the declaration and the index after it, or `nil` when the
    ///   tokens there are not an import.
    private static func parseImport(
        _ tokens: [Token], at start: Int, utf8: [UInt8], conditions: [String]
    ) -> (ImportDeclaration, Int)? {
        var index = start
        var attributes: [String] = []
        // Attributes: `@name` optionally followed directly by `( … )`.
        while index + 1 < tokens.count, tokens[index].isPunctuation("@"),
            tokens[index + 1].kind == .identifier, tokens[index + 1].startOffset == tokens[index].endOffset
        {
            var attribute = "@" + tokens[index + 1].text
            index += 2
            if index < tokens.count, tokens[index].isPunctuation("("),
                tokens[index].startOffset == tokens[index - 1].endOffset
            {
                guard let close = matchingParenthesis(tokens, from: index) else { return nil }
                let arguments = String(
                    decoding: utf8[tokens[index].startOffset..<tokens[close].endOffset], as: UTF8.self)
                attribute += arguments.filter { !$0.isWhitespace }
                index = close + 1
            }
            attributes.append(attribute)
        }
        var accessLevel: String?
        if index + 1 < tokens.count, tokens[index].kind == .identifier, !tokens[index].isEscaped,
            accessLevels.contains(tokens[index].text), tokens[index + 1].isWord("import")
        {
            accessLevel = tokens[index].text
            index += 1
        }
        guard index < tokens.count, tokens[index].isWord("import") else { return nil }
        index += 1
        var kind: String?
        if index + 1 < tokens.count, tokens[index].kind == .identifier, !tokens[index].isEscaped,
            importKinds.contains(tokens[index].text), tokens[index + 1].kind == .identifier
        {
            kind = tokens[index].text
            index += 1
        }
        guard index < tokens.count, tokens[index].kind == .identifier, !tokens[index].isFirstOnLine else { return nil }
        let moduleToken = tokens[index]
        var path = [moduleToken.text]
        index += 1
        // Further path components must stay on the import's line: a `.` on the
        // next line would be a new (invalid) statement, not part of the path.
        while index + 1 < tokens.count, tokens[index].isPunctuation("."), !tokens[index].isFirstOnLine,
            tokens[index + 1].kind == .identifier, !tokens[index + 1].isFirstOnLine
        {
            path.append(tokens[index + 1].text)
            index += 2
        }
        let declaration = ImportDeclaration(
            module: moduleToken.text, path: path, kind: kind, attributes: attributes,
            accessLevel: accessLevel, line: moduleToken.line, column: moduleToken.column,
            conditions: conditions)
        return (declaration, index)
    }

    private static func matchingParenthesis(_ tokens: [Token], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isPunctuation("(") {
                depth += 1
            } else if tokens[index].isPunctuation(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The `#if` nesting at the current point of the scan.
    private struct ConditionStack {
        /// Per open `#if`: the conditions of its branches so far.
        private var levels: [[String]] = []
        /// The active branch condition of every open level, outermost first.
        private(set) var current: [String] = []

        mutating func apply(directive: String, condition: String) {
            switch directive {
            case "#if":
                levels.append([condition])
            case "#elseif":
                if levels.isEmpty { levels.append([]) }
                levels[levels.count - 1].append(condition)
            case "#else":
                if levels.isEmpty { levels.append([]) }
                let earlier = levels[levels.count - 1]
                let negated = earlier.map { "!(\($0))" }.joined(separator: " && ")
                levels[levels.count - 1].append(negated.isEmpty ? "else" : negated)
            default:  // #endif
                _ = levels.popLast()
            }
            current = levels.map { branches in
                // The branch being read is the last one; a `#else` entry
                // already holds the negation of the branches before it.
                branches.last ?? ""
            }
        }
    }
}
