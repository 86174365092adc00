/// A target as declared in a package manifest (from `dump-package`).
public struct TargetDeclaration: Sendable, Equatable {
    /// The target's name, which is also its Swift module name (after
    /// ``ModuleName/c99Name(_:)``).
    public let name: String
    /// The target's kind.
    public let type: TargetType
    /// The `path:` argument, relative to the package directory, if given.
    public let path: String?
    /// The `exclude:` entries, relative to the target directory.
    public let exclude: [String]
    /// The `sources:` entries, relative to the target directory, if given.
    public let sources: [String]?
    /// The paths of the `resources:` rules, relative to the target
    /// directory: SwiftPM copies or processes them and compiles none of them.
    public let resources: [String]
    /// The `pkgConfig:` name of a system-library target.
    public let pkgConfig: String?
    /// The `dependencies:` entries in manifest order.
    public let dependencies: [TargetDependency]

    /// Creates a declaration; usually decoded by ``PackageManifest``.
    public init(
        name: String, type: TargetType, path: String? = nil, exclude: [String] = [],
        sources: [String]? = nil, resources: [String] = [], pkgConfig: String? = nil,
        dependencies: [TargetDependency] = []
    ) {
        self.name = name
        self.type = type
        self.path = path
        self.exclude = exclude
        self.sources = sources
        self.resources = resources
        self.pkgConfig = pkgConfig
        self.dependencies = dependencies
    }

    /// The target's source directory relative to its package directory: its
    /// `path`, else SwiftPM's default `Sources/<name>` (`Tests/<name>` for
    /// tests).
    public var relativeSourceDirectory: String {
        path ?? "\(type.defaultParentDirectory)/\(name)"
    }
}
