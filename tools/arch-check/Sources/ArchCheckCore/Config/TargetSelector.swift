/// Which targets a contract talks about: target-name patterns and folder
/// globs, written in the configuration as a string (one name pattern) or
/// an object `{"targets": [...], "paths": [...]}`.
///
/// A name pattern is a target name (`NIOCore`), a pattern (`*Feature`), or
/// either qualified by its package (`Package/Target`, where `Package` is the
/// manifest's `name:`, the package folder relative to the root, or that
/// folder's last component). A bare name matches the target of that name in
/// every package.
///
/// A folder glob (`Modules/*`, `Tests`) selects every target whose source
/// folder is, or lies inside, a folder the glob matches. Where a contract
/// needs units (`independence`, sibling layers), the targets under one
/// matched folder form one unit, and each target matched by a name is a
/// unit of its own.
public struct TargetSelector: Sendable, Hashable, CustomStringConvertible {
    /// Target-name patterns.
    public let names: [String]
    /// Folder globs relative to the root.
    public let paths: [String]

    /// Creates a selector.
    /// - Parameters:
    ///   - names: target-name patterns (`*` allowed, `Package/Target` allowed).
    ///   - paths: folder globs relative to the root.
    public init(names: [String] = [], paths: [String] = []) {
        self.names = names
        self.paths = paths
    }

    /// How messages name it: `NIOCore`, `Modules/*/` (a folder glob ends
    /// in `/`), several joined with `, `.
    public var description: String {
        (names + paths.map { $0.hasSuffix("/") ? $0 : $0 + "/" }).joined(separator: ", ")
    }
}
