/// Reads the libraries a module map links (`link "sqlite3"`), because a
/// system-library target may name its library there instead of (or besides)
/// `pkgConfig:`.
public enum ModuleMapReader {
    /// The `link` names in a module map's text, in order of appearance.
    ///
    /// Module maps share Swift's lexical basics (identifiers, string
    /// literals, `//` and `/* */` comments), so the Swift lexer serves.
    /// - Parameter text: the contents of `module.modulemap`.
    /// - Returns: the linked library names (`link framework "X"` included).
    public static func linkedLibraries(in text: String) -> [String] {
        let tokens = SwiftLexer.tokenize(text)
        var libraries: [String] = []
        for (index, token) in tokens.enumerated() where token.isWord("link") {
            var next = index + 1
            if next < tokens.count, tokens[next].isWord("framework") { next += 1 }
            if next < tokens.count, let name = tokens[next].stringValue {
                libraries.append(name)
            }
        }
        return libraries
    }
}
