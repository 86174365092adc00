import Foundation

/// Evaluates the seven contracts on a ``RepositoryModel``.
///
/// Every use of one target by another is an edge, whether it is declared in
/// a manifest, written as an import, or both. A forbidden edge is reported
/// where it is used: at each import of it (the message then also names the
/// manifest line to change, if the manifest declares it), or, when the code
/// never imports it, at its manifest entry. So one mistake is one violation,
/// and the line shown is the one a person reads first.
public enum ContractChecker {
    /// The app targets that may name concrete modules: the client side's
    /// composition root (`ClientAssembly`, shared by `share` and
    /// `share-daemon`) and the server's (`ShareServerKit`). Every other
    /// target under `Apps/` asks one of them for an interface
    /// (`composition-root`).
    public static let compositionRoots: Set<String> = ["ClientAssembly", "ShareServerKit"]

    /// Checks all contracts.
    /// - Parameter model: the repository as read by ``RepositoryScanner``
    ///   (or built by hand).
    /// - Returns: one result per contract, plus the model's notes.
    public static func check(_ model: RepositoryModel) -> CheckResult {
        var violations: [ContractName: [Violation]] = [:]
        func add(_ violation: Violation) {
            violations[violation.contract, default: []].append(violation)
        }
        let moduleIndex = Dictionary(grouping: model.targets.values, by: \.moduleName)
            .mapValues { $0.sorted { $0.id < $1.id } }
        let roots = compositionRootTargets(in: model)

        for target in model.targets.values.sorted(by: { $0.id < $1.id }) where !target.isExternal {
            if target.layer == .other, let location = model.targetLocations[target.id] {
                add(
                    Violation(
                        location: location, contract: .layers,
                        message:
                            "\(target.name) has its sources in \(target.sourceDirectory), outside Interfaces/, Support/, Modules/, Apps/ and Tests/; move them into the folder of the layer it belongs to"
                    ))
            }
            checkTarget(target, in: model, moduleIndex: moduleIndex, roots: roots, add: add)
        }
        checkDuplicateSystemLibraries(in: model, add: add)

        let contracts = ContractName.allCases.map { ContractResult(name: $0, violations: violations[$0] ?? []) }
        let counts = model.sourceStatistics
        return CheckResult(
            contracts: contracts, notes: model.notes,
            statistics: .init(
                packages: model.packages.count, targets: model.targets.count, files: counts.files,
                imports: counts.imports))
    }

    /// One place where a target imports another.
    private struct ImportSite {
        let location: SourceLocation
        let declaration: ImportDeclaration
    }

    private static func checkTarget(
        _ target: TargetNode, in model: RepositoryModel, moduleIndex: [String: [TargetNode]], roots: [TargetNode],
        add: (Violation) -> Void
    ) {
        let direct = model.directDependencies(of: target.id)
        let unresolved = model.unresolvedDependencyNames[target.id] ?? []
        let manifest = model.packages[target.id.package]?.manifestPath ?? "Package.swift"
        var declared: [TargetID: DeclaredDependency] = [:]
        for edge in model.dependencies[target.id] ?? [] {
            for dependency in edge.targets where declared[dependency] == nil {
                declared[dependency] = edge
            }
        }
        var sites: [TargetID: [ImportSite]] = [:]

        for file in model.sources[target.id] ?? [] {
            for declaration in file.imports {
                let location = SourceLocation(file: file.path, line: declaration.line, column: declaration.column)
                if declaration.isExported {
                    add(
                        Violation(
                            location: location, contract: .noExportedImport,
                            message:
                                "\(target.name) re-exports \(declaration.module) with @_exported import, which hides that dependency from everyone who imports \(target.name); make it a plain import and let each target that uses \(declaration.module) import it and declare the dependency itself",
                            conditions: declaration.conditions))
                }
                let module = declaration.module
                guard !ModuleName.isToolchain(module), module != target.moduleName else { continue }
                let candidates = moduleIndex[module] ?? []
                guard
                    let dependency = candidates.first(where: { direct.contains($0.id) })
                        ?? candidates.first(where: { $0.id.package == target.id.package }) ?? candidates.first
                else {
                    if !unresolved.contains(module) {
                        add(
                            Violation(
                                location: location, contract: .explicitImports,
                                message:
                                    "\(target.name) imports \(module), which is neither a toolchain module nor a target of this repository; remove the import, or declare the package that provides it and depend on it in \(manifest)",
                                conditions: declaration.conditions))
                    }
                    continue
                }
                sites[dependency.id, default: []].append(ImportSite(location: location, declaration: declaration))
                if !direct.contains(dependency.id) && !unresolved.contains(module) {
                    let advice =
                        edgeRules(
                            consumer: target, dependency: dependency, model: model, verb: "imports", roots: roots
                        ).isEmpty
                        ? addDependencyAdvice(for: dependency, consumer: target, manifest: manifest, model: model)
                        : "remove the import (the contracts reported with it forbid this dependency)"
                    add(
                        Violation(
                            location: location, contract: .explicitImports,
                            message:
                                "\(target.name) imports \(module), which is not a direct dependency of \(target.name) (a transitive one does not count); \(advice)",
                            conditions: declaration.conditions))
                }
            }
        }

        // Every edge, declared or imported, against the edge contracts.
        for dependencyID in Set(declared.keys).union(sites.keys).sorted() {
            guard let dependency = model.targets[dependencyID], dependencyID != target.id else { continue }
            if let importSites = sites[dependencyID], !importSites.isEmpty {
                let manifestHint =
                    declared[dependencyID].map {
                        " (declared in \($0.location))"
                    } ?? ""
                for (contract, message) in edgeRules(
                    consumer: target, dependency: dependency, model: model, verb: "imports", roots: roots)
                {
                    for site in importSites {
                        add(
                            Violation(
                                location: site.location, contract: contract, message: message + manifestHint,
                                conditions: site.declaration.conditions))
                    }
                }
            } else if let edge = declared[dependencyID] {
                let via = edge.declaration.name == dependency.name ? "" : " (through product \(edge.declaration.name))"
                for (contract, message) in edgeRules(
                    consumer: target, dependency: dependency, model: model, verb: "depends on", roots: roots)
                {
                    add(
                        Violation(
                            location: edge.location, contract: contract,
                            message: message.replacingFirst(
                                " depends on \(dependency.name)", with: " depends on \(dependency.name)\(via)")))
                }
            }
        }
    }

    /// The composition roots the tree has (``compositionRoots`` found under
    /// `Apps/`), in a stable order. A tree without any has no root to route
    /// through, so `composition-root` does not judge it.
    static func compositionRootTargets(in model: RepositoryModel) -> [TargetNode] {
        model.targets.values.filter { $0.layer == .app && !$0.isExternal && compositionRoots.contains($0.name) }
            .sorted { $0.id < $1.id }
    }

    /// The root an app target should ask: one it reaches through its
    /// declared dependencies, else the tree's first.
    private static func root(for consumer: TargetNode, among roots: [TargetNode], in model: RepositoryModel)
        -> TargetNode?
    {
        var seen: Set<TargetID> = [consumer.id]
        var queue = [consumer.id]
        while let next = queue.popLast() {
            for edge in model.dependencies[next] ?? [] {
                for id in edge.targets where seen.insert(id).inserted {
                    if let root = roots.first(where: { $0.id == id }) { return root }
                    queue.append(id)
                }
            }
        }
        return roots.first
    }

    /// The contracts that forbid `consumer` from using `dependency`, each
    /// with a message that says what to do instead.
    /// - Parameter roots: the tree's composition roots (``compositionRootTargets(in:)``).
    static func edgeRules(
        consumer: TargetNode, dependency: TargetNode, model: RepositoryModel, verb: String, roots: [TargetNode] = []
    ) -> [(ContractName, String)] {
        var rules: [(ContractName, String)] = []
        let subject = "\(consumer.name) \(verb) \(dependency.name)"

        // layers: never upward, Support/ beside Interfaces/ (see Layer.mayUse).
        // Tests (and targets outside the layers, which are reported on their
        // own) are not constrained.
        if !consumer.layer.mayUse(dependency.layer) {
            let message: String
            switch (consumer.layer, dependency.layer) {
            case (.interface, .support):
                message =
                    "\(subject), which is in Support/; an interface holds no I/O and may use only other interfaces and toolchain modules: keep the protocols and values here and move the code that needs \(dependency.name) into a module"
            case (.support, _):
                message =
                    "\(subject), which is in \(dependency.layer.folder); a support package may use only other packages under Support/ and toolchain modules, so that any layer can use it: move what it needs into Support/ if that is small, stable and free of domain logic, else move this code into a module"
            default:
                let advice: String
                switch consumer.layer {
                case .interface:
                    advice =
                        "an interface may use only other interfaces and toolchain modules: move the declarations it needs into an interface package"
                case .module:
                    advice =
                        dependency.layer == .test
                        ? "only Tests/ may use test targets: move the shared code into a module or interface"
                        : "a module must not depend on Apps/: let the app pass it what it needs through a protocol in an interface package"
                default:
                    advice = "only Tests/ may use test targets: move the shared code into a module or interface"
                }
                message =
                    "\(subject), which is in \(dependency.layer.folder) above \(consumer.name) in \(consumer.layer.folder); \(advice)"
            }
            rules.append((.layers, message))
        }

        // independence: modules meet only through interfaces.
        if consumer.layer == .module, dependency.layer == .module, dependency.id.package != consumer.id.package {
            let suggestion = [dependency.name + "Interface", dependency.packageName + "Interface"]
                .first { model.hasTargetOrPackage(named: $0) }
            if let suggestion {
                rules.append((.independence, "\(subject); depend on \(suggestion) instead"))
            } else {
                rules.append(
                    (
                        .independence,
                        "\(subject) from another module package (\(dependency.id.package)); a module may use only packages under Interfaces/ and Support/: move the API it needs into an interface package and depend on that"
                    ))
            }
        }

        // c-shims: a C library belongs to the adapter package that wraps it.
        if dependency.isSystemLibrary, dependency.id.package != consumer.id.package {
            rules.append(
                (
                    .cShims,
                    "\(subject), the C shim of package \(dependency.packageName) (\(dependency.id.package)); only targets of that package may use it: use the Swift API of \(dependency.packageName) (or its interface) instead"
                ))
        }

        // testing-only: fakes are for tests (and for other fakes, which are
        // themselves test-only).
        if dependency.isTesting, consumer.layer != .test, !consumer.isTesting {
            let production = String(dependency.name.dropLast("Testing".count))
            rules.append(
                (
                    .testingOnly,
                    "\(subject), a testing-fakes target that only targets under Tests/ may use; depend on \(production.isEmpty ? "the real implementation" : production) or its interface instead and keep the fakes in tests"
                ))
        }

        // composition-root: among the apps only the composition roots name
        // modules; the programs and their libraries get interfaces from them.
        if consumer.layer == .app, dependency.layer == .module, !compositionRoots.contains(consumer.name),
            let root = root(for: consumer, among: roots, in: model)
        {
            rules.append((.compositionRoot, "\(subject); ask \(root.name) for an interface instead"))
        }
        return rules
    }

    /// How to declare a missing dependency that the contracts allow.
    private static func addDependencyAdvice(
        for dependency: TargetNode, consumer: TargetNode, manifest: String, model: RepositoryModel
    ) -> String {
        if dependency.id.package == consumer.id.package {
            return "add \"\(dependency.name)\" to the dependencies of \(consumer.name) in \(manifest)"
        }
        // A product of the dependency's package that vends it, the one that
        // vends only it preferred.
        let package = model.packages[dependency.id.package]
        let products = (package?.products ?? []).filter { $0.targets.contains(dependency.name) }
        let packageIdentity =
            dependency.id.package.split(separator: "/").last.map(String.init) ?? dependency.packageName
        guard let product = products.first(where: { $0.targets == [dependency.name] }) ?? products.first else {
            return
                "\(package?.manifestPath ?? dependency.id.package) vends no product containing \(dependency.name): add a library product for it there, then add .product(name: \"\(dependency.name)\", package: \"\(packageIdentity)\") to the dependencies of \(consumer.name) in \(manifest)"
        }
        return
            "add .product(name: \"\(product.name)\", package: \"\(packageIdentity)\") to the dependencies of \(consumer.name) in \(manifest)"
    }

    /// Each C library may be declared (by `pkgConfig` or module map `link`)
    /// in one package only; every later declaration is a violation.
    private static func checkDuplicateSystemLibraries(in model: RepositoryModel, add: (Violation) -> Void) {
        var owners: [String: [TargetNode]] = [:]
        for target in model.targets.values where target.isSystemLibrary {
            for library in Set(target.systemLibraries.map(normalizedLibrary)) {
                owners[library, default: []].append(target)
            }
        }
        // Per later declarer: the libraries it declares again.
        var reported: [TargetID: [String]] = [:]
        for (library, declarers) in owners {
            let sorted = declarers.sorted { $0.id < $1.id }
            guard let first = sorted.first else { continue }
            for other in sorted.dropFirst() where other.id.package != first.id.package && !other.isExternal {
                reported[other.id, default: []].append(library)
            }
        }
        for (id, libraries) in reported {
            guard let target = model.targets[id] else { continue }
            let library = libraries.sorted().first!
            let first = owners[library]!.sorted { $0.id < $1.id }.first!
            let firstLocation =
                model.targetLocations[first.id]
                ?? SourceLocation(
                    file: model.packages[first.id.package]?.manifestPath ?? "Package.swift", line: 1, column: 1)
            add(
                Violation(
                    location: model.targetLocations[id]
                        ?? SourceLocation(
                            file: model.packages[id.package]?.manifestPath ?? "Package.swift", line: 1, column: 1),
                    contract: .cShims,
                    message:
                        "\(target.name) declares the C library \(libraries.sorted().joined(separator: ", ")), already declared by \(first.name) at \(firstLocation); keep one C shim per library in the adapter package that owns it and use that package instead"
                ))
        }
    }

    /// `libcurl` and `curl` (pkg-config and link names) name one library.
    static func normalizedLibrary(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasPrefix("lib") && lower.count > 3 ? String(lower.dropFirst(3)) : lower
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
