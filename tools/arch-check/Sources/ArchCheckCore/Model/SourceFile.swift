/// A Swift source file of a target and the imports it declares.
public struct SourceFile: Sendable, Hashable {
    /// Path relative to the repository root.
    public let path: String
    /// The file's import declarations in source order.
    public let imports: [ImportDeclaration]

    /// Creates a record.
    public init(path: String, imports: [ImportDeclaration]) {
        self.path = path
        self.imports = imports
    }
}
