/// A package of the repository: where it is and what it is called.
public struct PackageNode: Sendable, Hashable {
    /// Directory relative to the repository root (`.` for the root package).
    public let directory: String
    /// The manifest's `name:`.
    public let name: String
    /// Whether it was reached only as a dependency, outside the folders the
    /// checker scans (its own sources are not checked).
    public let isExternal: Bool
    /// The products it vends.
    public let products: [ProductDeclaration]

    /// Creates a record.
    public init(directory: String, name: String, isExternal: Bool = false, products: [ProductDeclaration] = []) {
        self.directory = directory
        self.name = name
        self.isExternal = isExternal
        self.products = products
    }

    /// Path of its manifest relative to the repository root.
    public var manifestPath: String {
        directory == "." ? "Package.swift" : "\(directory)/Package.swift"
    }
}
