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
    /// The manifest file SwiftPM reads: `Package.swift`, or a
    /// `Package@swift-6.0.swift` chosen for the toolchain.
    public let manifestFile: String

    /// Creates a record.
    public init(
        directory: String, name: String, isExternal: Bool = false, products: [ProductDeclaration] = [],
        manifestFile: String = "Package.swift"
    ) {
        self.directory = directory
        self.name = name
        self.isExternal = isExternal
        self.products = products
        self.manifestFile = manifestFile
    }

    /// Path of its manifest relative to the repository root.
    public var manifestPath: String {
        directory == "." ? manifestFile : "\(directory)/\(manifestFile)"
    }
}
