/// Everything the contracts look at: packages, targets, declared
/// dependencies and imports, resolved and with positions.
///
/// Built from the real tree by ``RepositoryScanner``; tests may also build
/// one by hand to check a contract without running SwiftPM.
public struct RepositoryModel: Sendable {
    /// Packages by directory (relative to the root).
    public var packages: [String: PackageNode]
    /// Targets by identifier.
    public var targets: [TargetID: TargetNode]
    /// Where each target is declared in its manifest.
    public var targetLocations: [TargetID: SourceLocation]
    /// Each target's declared dependencies, in manifest order.
    public var dependencies: [TargetID: [DeclaredDependency]]
    /// Names of declared dependencies that could not be resolved, per
    /// target: imports of these names are given the benefit of the doubt.
    public var unresolvedDependencyNames: [TargetID: Set<String>]
    /// Each target's Swift files with their imports.
    public var sources: [TargetID: [SourceFile]]
    /// Things worth telling that are not violations (printed to stderr).
    public var notes: [String]
    /// Packages (by directory) with remote dependencies whose checkouts
    /// arch-check could not read: an import of a module no target builds
    /// may come from one of them, so it is not reported as unknown.
    public var packagesWithUnresolvedRemotes: Set<String> = []

    /// Creates a model.
    public init(
        packages: [String: PackageNode] = [:], targets: [TargetID: TargetNode] = [:],
        targetLocations: [TargetID: SourceLocation] = [:], dependencies: [TargetID: [DeclaredDependency]] = [:],
        unresolvedDependencyNames: [TargetID: Set<String>] = [:], sources: [TargetID: [SourceFile]] = [:],
        notes: [String] = []
    ) {
        self.packages = packages
        self.targets = targets
        self.targetLocations = targetLocations
        self.dependencies = dependencies
        self.unresolvedDependencyNames = unresolvedDependencyNames
        self.sources = sources
        self.notes = notes
    }

    /// Targets building the Swift module `module`, ordered for stability.
    public func targets(buildingModule module: String) -> [TargetNode] {
        targets.values.filter { $0.moduleName == module }.sorted { $0.id < $1.id }
    }

    /// The targets `target` depends on directly (target dependencies plus
    /// every target of each product dependency).
    public func directDependencies(of target: TargetID) -> Set<TargetID> {
        Set((dependencies[target] ?? []).flatMap(\.targets))
    }

    /// Whether any target or package of the repository is called `name`.
    public func hasTargetOrPackage(named name: String) -> Bool {
        targets.keys.contains { $0.name == name } || packages.values.contains { $0.name == name }
    }

    /// How messages name each target: its bare name when no other target
    /// has that name, else `Package/Target` with the manifest's name, else
    /// (two packages of one name) with the package folder.
    public func displayNames() -> [TargetID: String] {
        let byName = Dictionary(grouping: targets.keys, by: \.name)
        var names: [TargetID: String] = [:]
        for (name, ids) in byName {
            if ids.count == 1 {
                names[ids[0]] = name
                continue
            }
            let packageNames = Dictionary(grouping: ids) { packages[$0.package]?.name ?? $0.package }
            for id in ids {
                let packageName = packages[id.package]?.name ?? id.package
                names[id] = packageNames[packageName]!.count == 1 ? "\(packageName)/\(name)" : "\(id.package)/\(name)"
            }
        }
        return names
    }

    /// Number of Swift files and imports read.
    public var sourceStatistics: (files: Int, imports: Int) {
        let files = sources.values.flatMap { $0 }
        return (files.count, files.reduce(0) { $0 + $1.imports.count })
    }
}
