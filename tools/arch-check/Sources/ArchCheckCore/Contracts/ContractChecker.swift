import Foundation

/// Evaluates the contracts of a ``Configuration`` on a ``RepositoryModel``.
///
/// Every use of one target by another is an edge, whether it is declared in
/// a manifest (a target or product dependency), written as an import, or
/// both. A forbidden edge is reported where it is used: at each import of it
/// (the message then also names the manifest line to change, if the manifest
/// declares it), or, when the code never imports it, at its manifest entry.
/// So one mistake is one violation, and the line shown is the one a person
/// reads first.
public enum ContractChecker {
    /// Checks every contract of `configuration`.
    /// - Parameters:
    ///   - model: the repository as read by ``RepositoryScanner`` (or built
    ///     by hand).
    ///   - configuration: the contracts.
    /// - Returns: one result per contract, in the configuration's order, plus
    ///   the model's notes.
    /// - Throws: ``ArchCheckError/configuration(file:message:)`` listing
    ///   every name pattern or folder glob that matches no target (with the
    ///   nearest target name), together with the configuration's own
    ///   ``Configuration/problems``.
    public static func check(
        _ model: RepositoryModel, configuration: Configuration,
        configurationFile: String = Configuration.defaultFileName
    ) throws -> CheckResult {
        let names = model.displayNames()
        let contracts = configuration.contracts.map {
            ResolvedContract(definition: $0, model: model, names: names)
        }
        let problems = configuration.problems + contracts.flatMap(\.problems)
        if !problems.isEmpty { throw Configuration.error(file: configurationFile, problems: problems) }
        var violations: [[Violation]] = Array(repeating: [], count: contracts.count)
        let moduleIndex = Dictionary(grouping: model.targets.values, by: \.moduleName)
            .mapValues { $0.sorted { $0.id < $1.id } }
        let context = Context(model: model, names: names, contracts: contracts)

        var unchecked: [String: Set<String>] = [:]
        for target in model.targets.values.sorted(by: { $0.id < $1.id }) where !target.isExternal {
            let manifest = model.packages[target.id.package]?.manifestPath ?? "Package.swift"
            checkTarget(
                target, context: context, moduleIndex: moduleIndex,
                unchecked: { unchecked[manifest, default: []].insert($0) },
                add: { index, violation in violations[index].append(violation) })
        }
        for (index, contract) in contracts.enumerated() {
            if case .cShims = contract.definition.kind {
                for violation in duplicateSystemLibraries(contract, context: context) {
                    violations[index].append(violation)
                }
            }
        }
        for (index, contract) in contracts.enumerated() {
            if case .unusedDependencies = contract.definition.kind {
                violations[index] += unusedDependencies(contract, context: context)
            }
        }
        var notes = model.notes + contracts.flatMap(\.notes)
        for (manifest, modules) in unchecked.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "\(manifest): note: remote dependencies are not resolved (no .build/checkouts): imports of \(modules.sorted().joined(separator: ", ")) were not checked; run `swift package resolve` there to check them"
            )
        }
        var results: [ContractResult] = []
        for (index, contract) in contracts.enumerated() {
            let definition = contract.definition
            var kept: [Violation] = []
            var matched = Array(repeating: 0, count: definition.ignore.count)
            for var violation in violations[index] {
                if let entry = definition.ignore.firstIndex(where: { $0.matches(violation) }) {
                    matched[entry] += 1
                    continue
                }
                if definition.level == .warn { violation.severity = .warning }
                kept.append(violation)
            }
            for (entry, count) in zip(definition.ignore, matched) where count == 0 {
                notes.append(
                    "note: stale ignore in contract \"\(definition.name)\": \(entry) matches no violation any more; remove it from the configuration"
                )
            }
            let used = zip(definition.ignore, matched).filter { $0.1 > 0 }.map(\.0)
            results.append(
                ContractResult(
                    name: definition.name, type: definition.type, violations: kept,
                    ignoredCount: matched.reduce(0, +), ignoreReasons: used.compactMap(\.reason)))
        }
        let counts = model.sourceStatistics
        return CheckResult(
            contracts: results,
            notes: notes,
            statistics: .init(
                packages: model.packages.values.filter { !$0.isExternal }.count,
                targets: model.targets.values.filter { !$0.isExternal }.count, files: counts.files,
                imports: counts.imports))
    }

    /// What every rule needs to see.
    private struct Context {
        let model: RepositoryModel
        let names: [TargetID: String]
        let contracts: [ResolvedContract]

        func name(_ id: TargetID) -> String { names[id] ?? id.name }
    }

    /// One place where a target imports another.
    private struct ImportSite {
        let location: SourceLocation
        let declaration: ImportDeclaration
    }

    private static func checkTarget(
        _ target: TargetNode, context: Context, moduleIndex: [String: [TargetNode]],
        unchecked: (String) -> Void, add: (Int, Violation) -> Void
    ) {
        let model = context.model
        // Without checkouts, a module no target builds may come from a remote
        // package: it is listed as not checked instead of reported.
        let unresolvedRemotes = model.packagesWithUnresolvedRemotes.contains(target.id.package)
        let direct = model.directDependencies(of: target.id)
        let unresolved = model.unresolvedDependencyNames[target.id] ?? []
        let manifest = model.packages[target.id.package]?.manifestPath ?? "Package.swift"
        let subjectName = context.name(target.id)
        var declared: [TargetID: DeclaredDependency] = [:]
        for edge in model.dependencies[target.id] ?? [] {
            for dependency in edge.targets where declared[dependency] == nil {
                declared[dependency] = edge
            }
        }
        var sites: [TargetID: [ImportSite]] = [:]
        var edgeCache: [TargetID: [(Int, String)]] = [:]
        func edgeRules(_ dependency: TargetNode, verb: String) -> [(Int, String)] {
            if verb == "imports", let cached = edgeCache[dependency.id] { return cached }
            var rules: [(Int, String)] = []
            for (index, contract) in context.contracts.enumerated() {
                if let message = contract.edgeMessage(
                    consumer: target, dependency: dependency, verb: verb, context: context)
                {
                    rules.append((index, contract.withAdvice(message)))
                }
            }
            if verb == "imports" { edgeCache[dependency.id] = rules }
            return rules
        }

        for file in model.sources[target.id] ?? [] {
            for declaration in file.imports {
                let location = SourceLocation(file: file.path, line: declaration.line, column: declaration.column)
                let module = declaration.module
                if declaration.isExported {
                    for (index, contract) in context.contracts.enumerated() {
                        guard case .noExportedImport(_, let allow) = contract.definition.kind,
                            contract.covers(target.id), !allow.contains(where: { Pattern.matches($0, module) })
                        else { continue }
                        add(
                            index,
                            Violation(
                                location: location, contract: contract.definition.name,
                                message: contract.withAdvice(
                                    "\(subjectName) re-exports \(module) with @_exported import, which hides that dependency from everyone who imports \(subjectName); make it a plain import and let each target that uses \(module) import it and declare the dependency itself"
                                ),
                                conditions: declaration.conditions, from: subjectName, to: module))
                    }
                }
                guard !ModuleName.isToolchain(module), module != target.moduleName else { continue }
                let candidates = moduleIndex[module] ?? []
                let dependency =
                    candidates.first(where: { direct.contains($0.id) })
                    ?? candidates.first(where: { $0.id.package == target.id.package }) ?? candidates.first
                if let dependency {
                    sites[dependency.id, default: []].append(ImportSite(location: location, declaration: declaration))
                }
                for (index, contract) in context.contracts.enumerated() {
                    guard case .explicitImports(_, let allow, let reportUnknown) = contract.definition.kind,
                        contract.covers(target.id), !allow.contains(where: { Pattern.matches($0, module) }),
                        !unresolved.contains(module)
                    else { continue }
                    guard let dependency else {
                        if reportUnknown && unresolvedRemotes {
                            unchecked(module)
                        } else if reportUnknown {
                            add(
                                index,
                                Violation(
                                    location: location, contract: contract.definition.name,
                                    message: contract.withAdvice(
                                        "\(subjectName) imports \(module), which is neither a toolchain module nor a target arch-check can see; remove the import, or declare the package that provides it and depend on it in \(manifest)"
                                    ),
                                    conditions: declaration.conditions, from: subjectName, to: module))
                        }
                        continue
                    }
                    guard !direct.contains(dependency.id) else { continue }
                    let forbidden = !edgeRules(dependency, verb: "imports").isEmpty
                    let advice =
                        forbidden
                        ? "remove the import (the contracts reported with it forbid this dependency)"
                        : addDependencyAdvice(for: dependency, consumer: target, manifest: manifest, context: context)
                    add(
                        index,
                        Violation(
                            location: location, contract: contract.definition.name,
                            message: contract.withAdvice(
                                "\(subjectName) imports \(module), which is not a direct dependency of \(subjectName) (a transitive one does not count); \(advice)"
                            ),
                            conditions: declaration.conditions, from: subjectName, to: module))
                }
            }
        }

        // Every edge, declared or imported, against the edge contracts.
        for dependencyID in Set(declared.keys).union(sites.keys).sorted() {
            guard let dependency = model.targets[dependencyID], dependencyID != target.id else { continue }
            if let importSites = sites[dependencyID], !importSites.isEmpty {
                let manifestHint = declared[dependencyID].map { " (declared in \($0.location))" } ?? ""
                for (index, message) in edgeRules(dependency, verb: "imports") {
                    for site in importSites {
                        add(
                            index,
                            Violation(
                                location: site.location, contract: context.contracts[index].definition.name,
                                message: message + manifestHint, conditions: site.declaration.conditions,
                                from: subjectName, to: context.name(dependencyID)))
                    }
                }
            } else if let edge = declared[dependencyID] {
                let via = edge.declaration.name == dependency.name ? "" : " (through product \(edge.declaration.name))"
                let dependencyName = context.name(dependencyID)
                for (index, message) in edgeRules(dependency, verb: "depends on") {
                    add(
                        index,
                        Violation(
                            location: edge.location, contract: context.contracts[index].definition.name,
                            message: message.replacingFirst(
                                " depends on \(dependencyName)", with: " depends on \(dependencyName)\(via)"),
                            from: subjectName, to: dependencyName))
                }
            }
        }
    }

    /// How to declare a missing dependency that the contracts allow.
    private static func addDependencyAdvice(
        for dependency: TargetNode, consumer: TargetNode, manifest: String, context: Context
    ) -> String {
        let consumerName = context.name(consumer.id)
        if dependency.id.package == consumer.id.package {
            return "add \"\(dependency.name)\" to the dependencies of \(consumerName) in \(manifest)"
        }
        // A product of the dependency's package that vends it, the one that
        // vends only it preferred.
        let package = context.model.packages[dependency.id.package]
        let products = (package?.products ?? []).filter { $0.targets.contains(dependency.name) }
        // The package argument: the folder's name, or for the root package
        // (folder `.`) its manifest name.
        let packageIdentity =
            dependency.id.package == "."
            ? dependency.packageName
            : dependency.id.package.split(separator: "/").last.map(String.init) ?? dependency.packageName
        guard let product = products.first(where: { $0.targets == [dependency.name] }) ?? products.first else {
            return
                "\(package?.manifestPath ?? dependency.id.package) vends no product containing \(dependency.name): add a library product for it there, then add .product(name: \"\(dependency.name)\", package: \"\(packageIdentity)\") to the dependencies of \(consumerName) in \(manifest)"
        }
        return
            "add .product(name: \"\(product.name)\", package: \"\(packageIdentity)\") to the dependencies of \(consumerName) in \(manifest)"
    }

    /// Each C library may be declared (by `pkgConfig` or module map `link`)
    /// in one package only; every later declaration is a violation.
    private static func duplicateSystemLibraries(_ contract: ResolvedContract, context: Context) -> [Violation] {
        let model = context.model
        var owners: [String: [TargetNode]] = [:]
        for target in model.targets.values where target.isSystemLibrary && contract.covers(target.id) {
            for library in Set(target.systemLibraries.map(normalizedLibrary)) {
                owners[library, default: []].append(target)
            }
        }
        // Per later declarer: the libraries it declares again.
        var reported: [TargetID: [String]] = [:]
        for (library, declarers) in owners {
            let sorted = declarers.sorted { $0.id < $1.id }
            guard let first = sorted.first else { continue }
            // A root package that vends a nested package's target points at the
            // same sources: that is one shim seen through two manifests, not two.
            for other in sorted.dropFirst()
            where other.id.package != first.id.package && !other.isExternal
                && other.sourceDirectory != first.sourceDirectory
            {
                reported[other.id, default: []].append(library)
            }
        }
        func location(_ id: TargetID) -> SourceLocation {
            model.targetLocations[id]
                ?? SourceLocation(file: model.packages[id.package]?.manifestPath ?? "Package.swift", line: 1, column: 1)
        }
        return reported.map { id, libraries in
            let library = libraries.sorted().first!
            let first = owners[library]!.sorted { $0.id < $1.id }.first!
            return Violation(
                location: location(id), contract: contract.definition.name,
                message: contract.withAdvice(
                    "\(context.name(id)) declares the C library \(libraries.sorted().joined(separator: ", ")), already declared by \(context.name(first.id)) at \(location(first.id)); keep one C shim per library in the package that owns it and use that package instead"
                ), from: context.name(id), to: library)
        }
    }

    /// Declared dependencies that no Swift file of the target imports, each
    /// reported at its manifest entry. Not judged: macro and plugin targets
    /// (used through `#externalMacro` and the build, never imported),
    /// executable targets (a test depends on one to have it built and runs
    /// it as a process), a dependency whose module reaches an imported one
    /// by `@_exported import` (an umbrella target), and targets without
    /// Swift files (C targets: their `#include`s are not read).
    private static func unusedDependencies(_ contract: ResolvedContract, context: Context) -> [Violation] {
        let model = context.model
        var exported: [String: Set<String>] = [:]
        for (id, files) in model.sources {
            guard let module = model.targets[id]?.moduleName else { continue }
            exported[module, default: []].formUnion(files.flatMap { $0.imports.filter(\.isExported).map(\.module) })
        }
        func reachable(from modules: Set<String>) -> Set<String> {
            var seen = modules
            var queue = Array(modules)
            while let next = queue.popLast() {
                for module in exported[next] ?? [] where seen.insert(module).inserted { queue.append(module) }
            }
            return seen
        }
        var found: [Violation] = []
        for target in model.targets.values.sorted(by: { $0.id < $1.id })
        where !target.isExternal && contract.covers(target.id) {
            guard let files = model.sources[target.id], !files.isEmpty else { continue }
            let imported = Set(files.flatMap { $0.imports.map(\.module) })
            let consumerName = context.name(target.id)
            let manifest = model.packages[target.id.package]?.manifestPath ?? "Package.swift"
            for edge in model.dependencies[target.id] ?? [] {
                let targets = edge.targets.compactMap { model.targets[$0] }
                guard !targets.contains(where: { [.macro, .plugin, .executable].contains($0.type) }),
                    reachable(from: Set(targets.map(\.moduleName))).isDisjoint(with: imported)
                else { continue }
                let name = edge.declaration.name
                found.append(
                    Violation(
                        location: edge.location, contract: contract.definition.name,
                        message: contract.withAdvice(
                            "\(consumerName) depends on \(name), but no source of \(consumerName) imports it; remove \"\(name)\" from the dependencies of \(consumerName) in \(manifest)"
                        ), from: consumerName, to: name))
            }
        }
        return found
    }

    /// `libcurl` and `curl` (pkg-config and link names) name one library.
    static func normalizedLibrary(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasPrefix("lib") && lower.count > 3 ? String(lower.dropFirst(3)) : lower
    }

    /// A contract with its selectors resolved to targets of the model.
    private struct ResolvedContract {
        let definition: ContractDefinition
        /// The unit of each target matched by the contract's primary
        /// selectors (`targets`, `source`, or the layer entries), keyed by
        /// target: its level and sibling for layers, else 0, and the unit.
        private var placement: [TargetID: (level: Int, sibling: Int, unit: String, label: String)] = [:]
        /// Descriptions of the layer entries, per level and sibling.
        private var levelNames: [[String]] = []
        /// Second and third selector groups (`forbidden`/`users`/`roots`,
        /// `implementations`).
        private var second: Set<TargetID> = []
        private var third: Set<TargetID> = []
        /// Whether the primary selectors were given at all (optional
        /// `targets` absent means every target).
        private var coversAll = false

        /// Name patterns and globs of the contract that match no target,
        /// as configuration errors (empty with `allowUnmatched`).
        private(set) var problems: [String] = []
        /// With `allowUnmatched`: what matched nothing, as notes.
        private(set) var notes: [String] = []

        init(definition: ContractDefinition, model: RepositoryModel, names: [TargetID: String]) {
            self.definition = definition
            var problems: [String] = []
            var notes: [String] = []
            func unmatched(_ what: String, hint: String) {
                if definition.allowUnmatched {
                    notes.append(
                        "note: contract \"\(definition.name)\" (allowUnmatched): \(what) matches no target; the rule checks nothing until one exists"
                    )
                } else {
                    problems.append("contract \"\(definition.name)\": \(what) matches no target\(hint)")
                }
            }
            func resolve(_ selectors: [TargetSelector]) -> [(TargetID, String, String)] {
                var result: [(TargetID, String, String)] = []
                for selector in selectors {
                    for pattern in selector.names {
                        let found = Self.targets(matchingName: pattern, in: model)
                        if found.isEmpty {
                            let suggestion = Self.nearestTargetName(to: pattern, in: model).map {
                                "did you mean \($0)? "
                            }
                            // A module of a remote package can be named only once its checkout is read.
                            let remote =
                                model.packagesWithUnresolvedRemotes.isEmpty
                                ? ""
                                : "; a module of a remote package needs `swift package resolve` first, so that arch-check reads .build/checkouts"
                            unmatched(
                                "\"\(pattern)\"",
                                hint:
                                    " (\(suggestion ?? "")targets are SwiftPM target names, or Package/Target; run with --list-targets to see them\(remote))"
                            )
                        }
                        result += found.map { ($0, "target \($0)", names[$0] ?? $0.name) }
                    }
                    for glob in selector.paths {
                        var found: [(TargetID, String, String)] = []
                        for target in model.targets.values.sorted(by: { $0.id < $1.id }) {
                            if let folder = Pattern.matchingFolder(glob, in: target.sourceDirectory) {
                                found.append((target.id, "folder \(folder)", folder + "/"))
                            }
                        }
                        if found.isEmpty {
                            if definition.allowUnmatched {
                                unmatched("the folder glob \"\(glob)\"", hint: "")
                            } else {
                                problems.append(
                                    "contract \"\(definition.name)\": the folder glob \"\(glob)\" matches the sources of no target (globs are relative to the root)"
                                )
                            }
                        }
                        result += found
                    }
                }
                return result
            }
            func place(_ selectors: [TargetSelector], level: Int) {
                for (sibling, selector) in selectors.enumerated() {
                    for (id, unit, label) in resolve([selector]) where placement[id] == nil {
                        placement[id] = (level, sibling, unit, label)
                    }
                }
            }
            defer {
                self.problems = problems
                self.notes = notes
            }
            switch definition.kind {
            case .layers(let levels):
                levelNames = levels.map { $0.map(\.description) }
                for (level, siblings) in levels.enumerated() {
                    place(siblings, level: level)
                }
            case .forbidden(let source, let forbidden):
                place(source, level: 0)
                second = Set(resolve(forbidden).map(\.0))
            case .independence(let targets, _):
                for (id, unit, label) in resolve(targets) where placement[id] == nil {
                    placement[id] = (0, 0, unit, label)
                }
            case .explicitImports(let targets, _, _), .cShims(let targets), .noExportedImport(let targets, _),
                .unusedDependencies(let targets):
                if let targets { place(targets, level: 0) } else { coversAll = true }
            case .testingOnly(let targets, let users):
                place(targets, level: 0)
                second = Set(resolve(users).map(\.0))
            case .compositionRoot(let targets, let roots, let implementations):
                place(targets, level: 0)
                second = Set(resolve(roots).map(\.0))
                third = Set(resolve(implementations).map(\.0))
            }
        }

        /// The target name closest to a pattern that matched nothing (by edit
        /// distance, at most a third of its length), for "did you mean".
        static func nearestTargetName(to pattern: String, in model: RepositoryModel) -> String? {
            let wanted = pattern.split(separator: "/").last.map(String.init) ?? pattern
            guard !wanted.contains("*") else { return nil }
            let candidates = Set(model.targets.keys.map(\.name))
            let scored = candidates.map { ($0, editDistance(wanted.lowercased(), $0.lowercased())) }
            guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }),
                best.1 <= max(2, wanted.count / 3)
            else { return nil }
            return best.0
        }

        /// Levenshtein distance between two strings.
        static func editDistance(_ lhs: String, _ rhs: String) -> Int {
            let a = Array(lhs)
            let b = Array(rhs)
            guard !a.isEmpty else { return b.count }
            var previous = Array(0...b.count)
            for i in 1...a.count {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(
                        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }

        /// Targets whose name (and package, when qualified) match `pattern`.
        static func targets(matchingName pattern: String, in model: RepositoryModel) -> [TargetID] {
            let packagePattern: String?
            let namePattern: String
            if let slash = pattern.lastIndex(of: "/") {
                packagePattern = String(pattern[..<slash])
                namePattern = String(pattern[pattern.index(after: slash)...])
            } else {
                packagePattern = nil
                namePattern = pattern
            }
            return model.targets.keys.filter { id in
                guard Pattern.matches(namePattern, id.name) else { return false }
                guard let packagePattern else { return true }
                let candidates = [
                    model.packages[id.package]?.name ?? "", id.package,
                    id.package.split(separator: "/").last.map(String.init) ?? "",
                ]
                return candidates.contains { Pattern.matches(packagePattern, $0) }
            }.sorted()
        }

        /// Whether the contract's primary selectors match `id`.
        func covers(_ id: TargetID) -> Bool {
            coversAll || placement[id] != nil
        }

        /// The message with the contract's advice, if any, appended.
        func withAdvice(_ message: String) -> String {
            guard let advice = definition.advice, !advice.isEmpty else { return message }
            return "\(message); \(advice)"
        }

        /// Why this contract forbids `consumer` to use `dependency`, or nil.
        func edgeMessage(consumer: TargetNode, dependency: TargetNode, verb: String, context: Context) -> String? {
            let consumerName = context.name(consumer.id)
            let dependencyName = context.name(dependency.id)
            let subject = "\(consumerName) \(verb) \(dependencyName)"
            switch definition.kind {
            case .layers:
                guard let from = placement[consumer.id], let to = placement[dependency.id] else { return nil }
                if to.level < from.level {
                    return
                        "\(subject), which is in a higher layer (\(levelNames[to.level][to.sibling])) than \(consumerName) (\(levelNames[from.level][from.sibling])); a layer may use only the layers below it"
                }
                if to.level == from.level, to.sibling != from.sibling {
                    return
                        "\(subject), but \(levelNames[to.level][to.sibling]) and \(levelNames[from.level][from.sibling]) are independent siblings of one layer"
                }
                return nil
            case .forbidden:
                guard placement[consumer.id] != nil, second.contains(dependency.id) else { return nil }
                return "\(subject), which \(consumerName) must not use"
            case .independence(_, let suggest):
                guard let from = placement[consumer.id], let to = placement[dependency.id], from.unit != to.unit
                else { return nil }
                let packageName = context.model.packages[dependency.id.package]?.name ?? dependency.packageName
                let suggestion = suggest.lazy.map {
                    $0.replacingOccurrences(of: "{target}", with: dependency.name)
                        .replacingOccurrences(of: "{package}", with: packageName)
                }.first { name in context.model.targets.keys.contains { $0.name == name } }
                if let suggestion {
                    return "\(subject); depend on \(suggestion) instead"
                }
                return
                    "\(subject), but \(from.label) and \(to.label) must stay independent of each other"
            case .cShims:
                guard dependency.isSystemLibrary, covers(dependency.id), dependency.id.package != consumer.id.package
                else { return nil }
                let owner = context.model.packages[dependency.id.package]?.name ?? dependency.packageName
                return
                    "\(subject), the C shim of package \(owner) (\(dependency.id.package)); only targets of that package may use it: use the Swift API of \(owner) instead"
            case .testingOnly:
                guard placement[dependency.id] != nil, placement[consumer.id] == nil, consumer.type != .test,
                    !second.contains(consumer.id)
                else { return nil }
                return
                    "\(subject), a testing target that only test targets may use; depend on the real implementation or its interface and keep the fakes in tests"
            case .compositionRoot:
                // With no root in the tree (allowUnmatched) there is nowhere
                // to send a target: the contract has nothing to judge.
                guard !second.isEmpty, placement[consumer.id] != nil, !second.contains(consumer.id),
                    third.contains(dependency.id)
                else { return nil }
                let root = root(for: consumer, in: context)
                return "\(subject); ask \(root) for an interface instead"
            case .explicitImports, .noExportedImport, .unusedDependencies:
                return nil
            }
        }

        /// The root a target should ask: one it reaches through its declared
        /// dependencies, else the first root.
        private func root(for consumer: TargetNode, in context: Context) -> String {
            let roots = second.sorted()
            var seen: Set<TargetID> = [consumer.id]
            var queue = [consumer.id]
            while let next = queue.popLast() {
                for edge in context.model.dependencies[next] ?? [] {
                    for id in edge.targets where seen.insert(id).inserted {
                        if second.contains(id) { return context.name(id) }
                        queue.append(id)
                    }
                }
            }
            return roots.first.map(context.name) ?? "a composition root"
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
