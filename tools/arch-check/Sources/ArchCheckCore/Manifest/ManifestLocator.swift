/// Finds where in a `Package.swift` a target or a dependency is written, so
/// manifest-level violations can point at a line an editor can jump to.
///
/// `dump-package` JSON carries no positions. The locator lexes the manifest
/// text (it never runs it) and searches string literals, so a name in a
/// comment does not count: first inside the target's own declaration, then
/// anywhere in the file (a dependency kept in a shared constant), and
/// finally falls back to 1:1.
public struct ManifestLocator: Sendable {
    /// Factory methods that declare a target.
    static let targetFactories: Set<String> = [
        "target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "plugin", "macro",
    ]

    /// Path of the manifest relative to the repository root.
    public let file: String
    private let tokens: [Token]
    /// Token ranges of the outermost target declarations: from the factory
    /// word to its closing parenthesis. A `.target(name:)` written as a
    /// dependency sits inside another declaration and is not one itself.
    private let declarations: [Range<Int>]

    /// Creates a locator over the text of one manifest.
    /// - Parameters:
    ///   - file: the manifest's path relative to the repository root.
    ///   - text: its contents.
    public init(file: String, text: String) {
        self.file = file
        let tokens = SwiftLexer.tokenize(SwiftLexer.withoutByteOrderMark(text))
        self.tokens = tokens
        var declarations: [Range<Int>] = []
        var index = 1
        while index + 1 < tokens.count {
            guard Self.isTargetFactory(tokens, at: index) else {
                index += 1
                continue
            }
            var depth = 0
            var end = index + 1
            while end < tokens.count {
                if tokens[end].isPunctuation("(") { depth += 1 }
                if tokens[end].isPunctuation(")") {
                    depth -= 1
                    if depth == 0 { break }
                }
                end += 1
            }
            declarations.append(index..<min(end + 1, tokens.count))
            index = end + 1
        }
        self.declarations = declarations
    }

    /// Where the target `name` is declared: the string literal in
    /// `.target(name: "…"`, pointing at the first character of the name.
    /// - Returns: the position, or 1:1 when it cannot be found.
    public func location(ofTarget name: String) -> SourceLocation {
        if let index = declarationIndex(ofTarget: name) {
            return position(of: tokens[index])
        }
        return firstString(name, in: tokens.indices).map { position(of: tokens[$0]) }
            ?? SourceLocation(file: file, line: 1, column: 1)
    }

    /// Where `target` declares the dependency written as `dependency` (a
    /// target or product name).
    /// - Returns: the position, or 1:1 when it cannot be found.
    public func location(ofDependency dependency: String, inTarget target: String) -> SourceLocation {
        if let start = declarationIndex(ofTarget: target),
            let extent = declarations.first(where: { $0.contains(start) }),
            let index = firstString(dependency, in: (start + 1)..<extent.upperBound)
        {
            return position(of: tokens[index])
        }
        if let index = firstString(dependency, in: tokens.indices) {
            return position(of: tokens[index])
        }
        if let index = tokens.firstIndex(where: { $0.kind == .identifier && $0.text == dependency }) {
            return position(of: tokens[index])
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }

    /// Index of the `"name"` token in `.target(name: "name"` (any factory).
    private func declarationIndex(ofTarget name: String) -> Int? {
        declarations.lazy.map { $0.lowerBound + 4 }.first { index in
            index < tokens.count && tokens[index].stringValue == name && tokens[index - 1].isPunctuation(":")
                && tokens[index - 2].isWord("name") && tokens[index - 3].isPunctuation("(")
        }
    }

    /// Whether `.factory(` starts at `index` (the factory word).
    private static func isTargetFactory(_ tokens: [Token], at index: Int) -> Bool {
        index > 0 && index + 1 < tokens.count && tokens[index - 1].isPunctuation(".")
            && tokens[index].kind == .identifier && Self.targetFactories.contains(tokens[index].text)
            && tokens[index + 1].isPunctuation("(")
    }

    private func firstString(_ value: String, in range: Range<Int>) -> Int? {
        range.first { tokens[$0].kind == .stringLiteral && tokens[$0].stringValue == value }
    }

    /// Position of the first character inside a string literal's quotes.
    private func position(of token: Token) -> SourceLocation {
        let offset = token.kind == .stringLiteral ? token.text.utf8.prefix { $0 == UInt8(ascii: "#") }.count + 1 : 0
        return SourceLocation(file: file, line: token.line, column: token.column + offset)
    }
}
