import Foundation

/// Builds a ``RepositoryModel`` from a repository on disk.
///
/// Finds every `Package.swift` under the root (hidden folders such as
/// `.build`, `checkouts` folders and the configuration's excluded folders
/// left out), dumps the manifests concurrently (cached), follows
/// `.package(path:)` dependencies to packages outside those so products can
/// be resolved, resolves every target dependency to targets, and scans every
/// Swift source file for imports.
public struct RepositoryScanner: Sendable {
    /// Absolute, standardized path of the repository root.
    public let root: String
    /// Runs `dump-package`.
    public let loader: ManifestLoader
    /// Folder globs, relative to the root, whose packages are not read.
    public let exclude: [String]

    /// Creates a scanner.
    /// - Parameters:
    ///   - root: the repository root (absolute or relative to the current directory).
    ///   - loader: how manifests are read.
    ///   - exclude: folder globs relative to the root to leave out.
    public init(root: String, loader: ManifestLoader, exclude: [String] = []) {
        self.root = Self.canonicalPath(root)
        self.loader = loader
        self.exclude = exclude
    }

    /// Absolute path with `.`/`..` and symbolic links resolved, so paths
    /// from `dump-package` and from the file system compare equal.
    static func canonicalPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `path` relative to the root (`.` for the root itself); paths outside
    /// the root stay absolute.
    func relativePath(_ path: String) -> String {
        if path == root { return "." }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Package directories of the tree, root first then by path: every
    /// folder under the root with a `Package.swift`, except hidden folders
    /// (`.build`, `.git`, `.swiftpm`), `checkouts` folders and excluded ones.
    /// - Throws: ``ArchCheckError/missingRootManifest(path:)`` when there is
    ///   no `Package.swift` at all.
    public func discoverPackages() throws -> [String] {
        let fileManager = FileManager.default
        var found: [String] = []
        var pending = [root]
        while let directory = pending.popLast() {
            guard let children = try? fileManager.contentsOfDirectory(atPath: directory) else { continue }
            if children.contains("Package.swift") { found.append(directory) }
            for child in children where !child.hasPrefix(".") && child != "checkouts" {
                let path = directory + "/" + child
                let relative = relativePath(path)
                if exclude.contains(where: { Pattern.matchesPath($0, relative) }) { continue }
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                    (try? fileManager.destinationOfSymbolicLink(atPath: path)) == nil
                else { continue }
                pending.append(path)
            }
        }
        guard !found.isEmpty else { throw ArchCheckError.missingRootManifest(path: root) }
        return found.sorted { lhs, rhs in
            lhs == root || (rhs != root && lhs < rhs)
        }
    }

    /// Reads the whole tree into a model.
    /// - Throws: ``ArchCheckError`` when the root has no manifest or a
    ///   manifest cannot be dumped.
    public func scan() async throws -> RepositoryModel {
        let scanned = try discoverPackages()
        var (manifests, cacheFiles) = try await loader.loadAllNotingCache(scanned.map { ($0, manifestPath($0)) })
        var external: Set<String> = []
        // Remote dependencies resolved by `swift package resolve`: read the
        // checkouts' manifests, so their products resolve to modules.
        var checkouts: [String: [String: String]] = [:]
        var unresolvedRemotes: Set<String> = []
        for (directory, manifest) in manifests where manifest.dependencies.contains(where: { $0.path == nil }) {
            let (found, complete) = Self.remoteCheckouts(of: manifest, directory: directory)
            checkouts[directory] = found
            if !complete { unresolvedRemotes.insert(directory) }
        }
        let checkoutDirectories = Set(checkouts.values.flatMap(\.values)).filter { manifests[$0] == nil }
        if !checkoutDirectories.isEmpty {
            let loaded = try await loader.loadAllNotingCache(
                checkoutDirectories.sorted().map { ($0, manifestPath($0)) })
            manifests.merge(loaded.manifests) { old, _ in old }
            cacheFiles.formUnion(loaded.cacheFiles)
            external.formUnion(checkoutDirectories)
        }
        // Follow path dependencies that lead outside the scanned folders,
        // so that products they vend resolve; their own code is not checked.
        while true {
            let missing = Set(
                manifests.values.flatMap(\.dependencies).compactMap(\.path).map(Self.canonicalPath)
            ).filter { manifests[$0] == nil && FileManager.default.fileExists(atPath: $0 + "/Package.swift") }
            if missing.isEmpty { break }
            let loaded = try await loader.loadAllNotingCache(missing.sorted().map { ($0, manifestPath($0)) })
            manifests.merge(loaded.manifests) { old, _ in old }
            cacheFiles.formUnion(loaded.cacheFiles)
            external.formUnion(missing)
        }
        loader.pruneCache(keeping: cacheFiles)
        var model = try build(manifests: manifests, external: external, checkouts: checkouts)
        model.packagesWithUnresolvedRemotes = Set(unresolvedRemotes.map(relativePath))
        return model
    }

    /// The checkout folders of a package's remote dependencies, by identity,
    /// as `swift package resolve` leaves them: `.build/checkouts/NAME` where
    /// NAME is the last component of the location `Package.resolved` pins
    /// (without `.git`), else a folder named like the identity (any case).
    /// - Returns: the folders found (each with a `Package.swift`), and
    ///   whether every remote dependency has one.
    static func remoteCheckouts(of manifest: PackageManifest, directory: String) -> (
        found: [String: String], complete: Bool
    ) {
        let checkoutsFolder = directory + "/.build/checkouts"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: checkoutsFolder)) ?? []
        var locations: [String: String] = [:]
        if let data = FileManager.default.contents(atPath: directory + "/Package.resolved"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            // Version 2 and 3 list "pins" at the top; version 1 under "object".
            let pins =
                object["pins"] as? [[String: Any]] ?? (object["object"] as? [String: Any])?["pins"] as? [[String: Any]]
                ?? []
            for pin in pins {
                guard let location = pin["location"] as? String ?? pin["repositoryURL"] as? String else { continue }
                let identity = (pin["identity"] as? String ?? pin["package"] as? String ?? "").lowercased()
                locations[identity] = location
            }
        }
        var found: [String: String] = [:]
        var complete = true
        for reference in manifest.dependencies where reference.path == nil {
            let identity = reference.identity.lowercased()
            var candidates: [String] = []
            if let location = locations[identity] {
                var name = location.split(separator: "/").last.map(String.init) ?? location
                if name.hasSuffix(".git") { name.removeLast(4) }
                candidates.append(name)
            }
            candidates += folders.filter { $0.lowercased() == identity }
            if let folder = candidates.first(where: {
                FileManager.default.fileExists(atPath: "\(checkoutsFolder)/\($0)/Package.swift")
            }) {
                found[reference.identity] = canonicalPath(checkoutsFolder + "/" + folder)
            } else {
                complete = false
            }
        }
        return (found, complete)
    }

    /// The manifest of a package directory, as messages name it.
    private func manifestPath(_ directory: String) -> String {
        directory == root ? "Package.swift" : relativePath(directory) + "/Package.swift"
    }

    /// Turns dumped manifests into the model (no subprocesses from here on).
    /// - Throws: ``ArchCheckError/unreadable(path:reason:)`` when a manifest
    ///   or source file cannot be read.
    func build(
        manifests: [String: PackageManifest], external: Set<String>, checkouts: [String: [String: String]] = [:]
    ) throws -> RepositoryModel {
        var model = RepositoryModel()
        var locators: [String: ManifestLocator] = [:]
        var targetDirectories: [TargetID: String] = [:]
        var unresolvedUses: [String: (location: SourceLocation, name: String, targets: [String])] = [:]

        for (directory, manifest) in manifests {
            let relative = relativePath(directory)
            let manifestFile = Self.manifestFile(in: directory, toolsVersion: manifest.toolsVersion)
            let package = PackageNode(
                directory: relative, name: manifest.name, isExternal: external.contains(directory),
                products: manifest.products, manifestFile: manifestFile)
            model.packages[relative] = package
            let text = try readFile(directory + "/" + manifestFile)
            let locator = ManifestLocator(file: package.manifestPath, text: text)
            locators[directory] = locator
            for target in manifest.targets {
                let id = TargetID(package: relative, name: target.name)
                let targetDirectory = Self.targetDirectory(of: target, in: manifest, packageDirectory: directory)
                targetDirectories[id] = targetDirectory
                let sourceDirectory = Self.joined(relative, targetDirectory)
                model.targets[id] = TargetNode(
                    id: id, packageName: manifest.name, type: target.type, sourceDirectory: sourceDirectory,
                    systemLibraries: target.type == .system
                        ? systemLibraries(of: target, in: directory + "/" + targetDirectory) : [],
                    isExternal: package.isExternal)
                model.targetLocations[id] = locator.location(ofTarget: target.name)
            }
        }

        for (directory, manifest) in manifests {
            let relative = relativePath(directory)
            let locator = locators[directory]!
            for target in manifest.targets {
                let id = TargetID(package: relative, name: target.name)
                var edges: [DeclaredDependency] = []
                for dependency in target.dependencies {
                    let location = locator.location(ofDependency: dependency.name, inTarget: target.name)
                    if let resolved = resolve(
                        dependency, of: manifest, manifests: manifests, checkouts: checkouts[directory] ?? [:])
                    {
                        edges.append(DeclaredDependency(declaration: dependency, targets: resolved, location: location))
                    } else {
                        model.unresolvedDependencyNames[id, default: []].insert(dependency.name)
                        guard !model.packages[relative]!.isExternal else { continue }
                        unresolvedUses["\(location) \(dependency.name)", default: (location, dependency.name, [])]
                            .targets.append(target.name)
                    }
                }
                model.dependencies[id] = edges
                if target.type.hasSwiftSources && !model.packages[relative]!.isExternal {
                    model.sources[id] = try sourceFiles(
                        of: target, targetDirectory: targetDirectories[id]!, packageDirectory: directory)
                }
            }
        }
        // One note per unresolvable name and manifest line, not per target.
        for (location, name, targets) in unresolvedUses.values {
            model.notes.append(
                "\(location): note: \"\(name)\" names no target or product arch-check can see (a product of a remote package whose checkout is not in .build/checkouts: run `swift package resolve` there; or a typo); dependencies on it and imports of it are not checked (\(targets.sorted().joined(separator: ", ")))"
            )
        }
        model.notes.sort()
        return model
    }

    /// Resolves one dependency entry to the targets it makes direct
    /// dependencies, the way SwiftPM does.
    private func resolve(
        _ dependency: TargetDependency, of manifest: PackageManifest, manifests: [String: PackageManifest],
        checkouts: [String: String]
    ) -> [TargetID]? {
        let own = relativePath(manifest.directory)
        func productTargets(named name: String, packageArgument: String?) -> [TargetID]? {
            for reference in manifest.dependencies {
                guard let path = reference.path.map(Self.canonicalPath) ?? checkouts[reference.identity],
                    let vendor = manifests[path]
                else { continue }
                if let packageArgument, !reference.matches(packageArgument: packageArgument, manifestName: vendor.name)
                {
                    continue
                }
                if let product = vendor.products.first(where: { $0.name == name }) {
                    return product.targets.map { TargetID(package: relativePath(path), name: $0) }
                }
            }
            return nil
        }
        switch dependency {
        case .target(let name):
            return manifest.targets.contains { $0.name == name } ? [TargetID(package: own, name: name)] : nil
        case .byName(let name):
            if manifest.targets.contains(where: { $0.name == name }) {
                return [TargetID(package: own, name: name)]
            }
            return productTargets(named: name, packageArgument: nil)
        case .product(let name, let package):
            return productTargets(named: name, packageArgument: package)
        }
    }

    /// The libraries a system-library target declares: `pkgConfig` and the
    /// module map's `link` lines.
    private func systemLibraries(of target: TargetDeclaration, in targetDirectory: String) -> [String] {
        var libraries: [String] = target.pkgConfig.map { [$0] } ?? []
        let moduleMap = targetDirectory + "/module.modulemap"
        if let text = try? String(contentsOfFile: moduleMap, encoding: .utf8) {
            for library in ModuleMapReader.linkedLibraries(in: text) where !libraries.contains(library) {
                libraries.append(library)
            }
        }
        return libraries
    }

    /// Folder suffixes whose contents SwiftPM never compiles: documentation
    /// catalogs (their `.swift` files are tutorial snippets) and resource
    /// bundles it processes as a whole.
    static let uncompiledBundleSuffixes = [".docc", ".xcassets", ".lproj", ".xcdatamodeld"]

    /// The target's Swift files as SwiftPM compiles them, each with its
    /// imports, sorted by path: `sources:` (default: the whole target
    /// folder) minus `exclude:`, declared `resources:`, `.docc` catalogs and
    /// other bundles, hidden files, and the configuration's excluded
    /// folders. Symbolic links to folders are followed (SwiftPM does), each
    /// real folder once; paths keep the link's name.
    private func sourceFiles(
        of target: TargetDeclaration, targetDirectory relativeDirectory: String, packageDirectory: String
    )
        throws -> [SourceFile]
    {
        let fileManager = FileManager.default
        let targetDirectory = Self.joined(packageDirectory, relativeDirectory)
        let roots = (target.sources ?? ["."]).map { Self.joined(targetDirectory, $0) }
        let excluded = (target.exclude + target.resources).map { Self.joined(targetDirectory, $0) }
        func isExcluded(_ path: String) -> Bool {
            excluded.contains { path == $0 || path.hasPrefix($0 + "/") }
                || exclude.contains { Pattern.matchesPath($0, relativePath(path)) }
        }
        var paths: Set<String> = []
        var visited: Set<String> = []
        func walk(_ path: String, isRoot: Bool) {
            let name = (path as NSString).lastPathComponent
            guard !isExcluded(path), isRoot || !name.hasPrefix(".") else { return }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
            guard isDirectory.boolValue else {
                if name.hasSuffix(".swift") && (isRoot || !isManifest(path)) { paths.insert(path) }
                return
            }
            guard !Self.uncompiledBundleSuffixes.contains(where: { name.hasSuffix($0) }),
                visited.insert(Self.canonicalPath(path)).inserted,
                let children = try? fileManager.contentsOfDirectory(atPath: path)
            else { return }
            for child in children { walk(path + "/" + child, isRoot: false) }
        }
        for start in roots { walk(start, isRoot: true) }
        return try paths.sorted().map { path in
            SourceFile(path: relativePath(path), imports: ImportScanner.imports(in: try readFile(path)))
        }
    }

    /// Whether `path` is a manifest (`Package.swift`, `Package@swift-….swift`)
    /// at the package root: a target whose path is `.` does not compile it.
    private func isManifest(_ path: String) -> Bool {
        Self.isManifestName((path as NSString).lastPathComponent)
    }

    /// Whether a file name is a manifest's: `Package.swift` or `Package@swift-….swift`.
    static func isManifestName(_ name: String) -> Bool {
        name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    }

    /// The manifest file SwiftPM evaluated in `directory`: the one whose
    /// `swift-tools-version` is the tools version of the dump, a
    /// version-specific `Package@swift-….swift` before `Package.swift`
    /// (SwiftPM prefers them), else `Package.swift`. Positions in messages
    /// come from this file.
    static func manifestFile(in directory: String, toolsVersion: String?) -> String {
        guard let toolsVersion,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory).filter(isManifestName),
            names.count > 1
        else { return "Package.swift" }
        let wanted = normalizedVersion(toolsVersion)
        for name in names.sorted(by: { ($0 == "Package.swift" ? 1 : 0, $1) < ($1 == "Package.swift" ? 1 : 0, $0) }) {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
            let firstLine = String(decoding: data.prefix(200), as: UTF8.self).split(separator: "\n").first ?? ""
            guard let marker = firstLine.range(of: "swift-tools-version:") else { continue }
            let declared = firstLine[marker.upperBound...].split(separator: ";").first ?? ""
            if normalizedVersion(declared.trimmingCharacters(in: .whitespaces)) == wanted { return name }
        }
        return "Package.swift"
    }

    /// `6.0` and `6.0.0` compare equal.
    private static func normalizedVersion<S: StringProtocol>(_ version: S) -> [Int] {
        var parts = version.split(separator: ".").map { Int($0) ?? 0 }
        while parts.count < 3 { parts.append(0) }
        return Array(parts.prefix(3))
    }

    /// A target's folder relative to its package, as SwiftPM finds it: its
    /// `path`, else the first of `Sources/<name>`, `Source/<name>`,
    /// `src/<name>`, `srcs/<name>` that exists (`Tests/<name>` for tests,
    /// `Plugins/<name>` for plugins), else `Sources` itself when the package
    /// has a single such target and no folder of its name.
    static func targetDirectory(of target: TargetDeclaration, in manifest: PackageManifest, packageDirectory: String)
        -> String
    {
        if let path = target.path { return path }
        let parents: [String]
        switch target.type {
        case .test: parents = ["Tests", "Sources", "Source", "src", "srcs"]
        case .plugin: parents = ["Plugins"]
        default: parents = ["Sources", "Source", "src", "srcs"]
        }
        let fileManager = FileManager.default
        for parent in parents where fileManager.fileExists(atPath: "\(packageDirectory)/\(parent)/\(target.name)") {
            return "\(parent)/\(target.name)"
        }
        let parent = parents[0]
        let siblings = manifest.targets.filter { ($0.type == .test) == (target.type == .test) && $0.path == nil }
        if siblings.count == 1, fileManager.fileExists(atPath: "\(packageDirectory)/\(parent)") {
            return parent
        }
        return target.relativeSourceDirectory
    }

    private func readFile(_ path: String) throws -> String {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw ArchCheckError.unreadable(path: relativePath(path), reason: error.localizedDescription)
        }
    }

    /// `base/path` without a leading `./`, normalized.
    static func joined(_ base: String, _ path: String) -> String {
        let prefix = base.hasPrefix("/") ? "/" : ""
        var components: [Substring] = base == "." ? [] : base.split(separator: "/")
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return components.isEmpty ? (prefix.isEmpty ? "." : "/") : prefix + components.joined(separator: "/")
    }
}
