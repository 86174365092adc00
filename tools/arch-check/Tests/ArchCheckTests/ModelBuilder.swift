import ArchCheckCore
import Testing

/// Builds a ``RepositoryModel`` by hand, so contract rules can be tested
/// without SwiftPM. Paths follow the repository layout: a package at
/// `Modules/X` has its targets at `Modules/X/Sources/<name>`.
struct ModelBuilder {
    private(set) var model = RepositoryModel()

    /// Adds a package.
    @discardableResult
    mutating func package(_ directory: String, name: String? = nil, products: [ProductDeclaration] = []) -> String {
        let packageName = name ?? directory.split(separator: "/").last.map(String.init) ?? "Root"
        model.packages[directory] = PackageNode(directory: directory, name: packageName, products: products)
        return directory
    }

    /// Adds a target to a package added before; `sourceDirectory` defaults to
    /// `<package>/Sources/<name>`.
    @discardableResult
    mutating func target(
        _ package: String, _ name: String, type: TargetType = .regular, sourceDirectory: String? = nil,
        systemLibraries: [String] = [], line: Int = 1
    ) -> TargetID {
        let id = TargetID(package: package, name: name)
        let packageName = model.packages[package]?.name ?? package
        let directory = sourceDirectory ?? (package == "." ? "Sources/\(name)" : "\(package)/Sources/\(name)")
        model.targets[id] = TargetNode(
            id: id, packageName: packageName, type: type, sourceDirectory: directory,
            systemLibraries: systemLibraries)
        model.targetLocations[id] = SourceLocation(file: manifest(package), line: line, column: 20)
        model.dependencies[id] = model.dependencies[id] ?? []
        return id
    }

    /// Declares that `consumer` depends on `targets` through `declaration`,
    /// written at `line` of the consumer's manifest.
    mutating func depend(
        _ consumer: TargetID, on targets: [TargetID], as declaration: TargetDependency? = nil, line: Int = 10
    ) {
        let written = declaration ?? .byName(targets.first?.name ?? "")
        model.dependencies[consumer, default: []].append(
            DeclaredDependency(
                declaration: written, targets: targets,
                location: SourceLocation(file: manifest(consumer.package), line: line, column: 30)))
    }

    /// Adds a source file of `target` with the given text.
    mutating func file(_ target: TargetID, _ name: String, _ source: String) {
        let directory = model.targets[target]!.sourceDirectory
        model.sources[target, default: []].append(
            SourceFile(path: "\(directory)/\(name)", imports: ImportScanner.imports(in: source)))
    }

    /// Marks a dependency name as unresolvable for `target`.
    mutating func unresolved(_ target: TargetID, _ name: String) {
        model.unresolvedDependencyNames[target, default: []].insert(name)
    }

    private func manifest(_ package: String) -> String {
        package == "." ? "Package.swift" : "\(package)/Package.swift"
    }

    /// The repository's rules, as the ShareKit-layout fixtures use them.
    static let sharekitRules: Configuration = {
        do {
            return try Configuration.load(path: TestPaths.fixture("sharekit-rules.json"))
        } catch {
            fatalError("Fixtures/sharekit-rules.json: \(error)")
        }
    }()

    /// Checks the model with `configuration` (default: the repository's
    /// rules); a configuration error is reported as an issue and gives an
    /// empty result.
    func check(_ configuration: Configuration = ModelBuilder.sharekitRules) -> CheckResult {
        do {
            return try ContractChecker.check(model, configuration: configuration)
        } catch {
            Issue.record("\(error)")
            return CheckResult(contracts: [], statistics: .init(packages: 0, targets: 0, files: 0, imports: 0))
        }
    }
}

extension CheckResult {
    /// `file:line:col [contract]` of each violation, for compact expectations.
    var compact: [String] {
        violations.map { "\($0.location) [\($0.contract)]" }
    }
}
