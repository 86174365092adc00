/// One `import` declaration found in a Swift source file.
///
/// `import struct Foundation.URL` gives module `Foundation`, kind `struct`,
/// path `["Foundation", "URL"]`. The position is that of the module name,
/// which is where a diagnostic about the import belongs.
public struct ImportDeclaration: Sendable, Hashable, Codable {
    /// The imported module: the first component of the path.
    public let module: String
    /// All components of the imported path (`X.Y.Z` gives three).
    public let path: [String]
    /// The declaration kind of a scoped import (`struct`, `func`, …), if any.
    public let kind: String?
    /// Attributes as written, without spaces: `@testable`, `@_spi(Internal)`.
    public let attributes: [String]
    /// The access level written on the import (`public`, `package`, …), if any.
    public let accessLevel: String?
    /// 1-based line of the module name.
    public let line: Int
    /// 1-based column (UTF-8 bytes) of the module name.
    public let column: Int
    /// The `#if` conditions around the import, outermost first; for a
    /// `#else` branch the negation of the earlier conditions. Empty when the
    /// import is unconditional.
    public let conditions: [String]

    /// Creates an import record; the scanner is the usual source.
    public init(
        module: String, path: [String], kind: String? = nil, attributes: [String] = [],
        accessLevel: String? = nil, line: Int, column: Int, conditions: [String] = []
    ) {
        self.module = module
        self.path = path
        self.kind = kind
        self.attributes = attributes
        self.accessLevel = accessLevel
        self.line = line
        self.column = column
        self.conditions = conditions
    }

    /// Whether the import re-exports its module (`@_exported import`).
    public var isExported: Bool {
        attributes.contains("@_exported")
    }

    /// Whether the import sits inside an `#if` block. Such imports count like
    /// any other: a dependency that is only used on one platform is still a
    /// dependency.
    public var isConditional: Bool {
        !conditions.isEmpty
    }
}
