/// A target of the repository with everything the contracts ask about it.
public struct TargetNode: Sendable, Hashable {
    /// Which target this is.
    public let id: TargetID
    /// The name of the package that declares it (the manifest's `name:`).
    public let packageName: String
    /// The target's kind.
    public let type: TargetType
    /// Source directory relative to the repository root.
    public let sourceDirectory: String
    /// For system-library targets: the libraries it declares (its
    /// `pkgConfig` name and the module map's `link` names).
    public let systemLibraries: [String]
    /// Whether the package was found only as a dependency of a scanned
    /// package (outside the root, or in an excluded folder): its own imports
    /// are not checked.
    public let isExternal: Bool

    /// Creates a node.
    public init(
        id: TargetID, packageName: String, type: TargetType, sourceDirectory: String,
        systemLibraries: [String] = [], isExternal: Bool = false
    ) {
        self.id = id
        self.packageName = packageName
        self.type = type
        self.sourceDirectory = sourceDirectory
        self.systemLibraries = systemLibraries
        self.isExternal = isExternal
    }

    /// The target's name.
    public var name: String { id.name }

    /// The Swift module name the target builds (the name with characters
    /// that cannot appear in an identifier replaced, as SwiftPM does).
    public var moduleName: String { ModuleName.c99Name(id.name) }

    /// Whether this is a C shim (a system-library target).
    public var isSystemLibrary: Bool { type == .system }
}
