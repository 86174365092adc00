import Foundation

/// Reads package manifests by running `swift package dump-package` on each,
/// several at a time, and caches what it printed.
///
/// Manifests are Swift programs; evaluating them in-process would mean
/// running the repository's code inside the checker. SwiftPM already
/// evaluates them in its sandboxed way and prints JSON, so the checker asks
/// it. `dump-package` does not resolve dependencies, so manifests with
/// remote dependencies work offline.
///
/// Each dump is cached in ``cacheDirectory`` under the SHA-256 of the
/// package's `Package*.swift` files, its path and the `swift` executable
/// (resolved path, size, modification time), so a warm run starts no
/// subprocess at all. A manifest that reads environment variables or other
/// files is cached by its text only: pass `--no-cache` when those change.
///
/// Nothing is left in the system's temporary folder: every `dump-package`
/// gets `TMPDIR` and its `--scratch-path` inside a folder of this run, which
/// is removed at the end. The own scratch path also keeps `dump-package`
/// from waiting for the `.build` lock of a `swift build` running in that
/// package.
public struct ManifestLoader: Sendable {
    /// Path of the `swift` driver.
    public let swiftExecutable: String
    /// How many `dump-package` processes may run at once.
    public let maximumConcurrency: Int
    /// Where dumps are cached; `nil` for no cache.
    public let cacheDirectory: String?
    /// Seconds one `dump-package` may run before it and every process it
    /// started are killed: a manifest can loop forever, and CI should fail
    /// with a message rather than hang until the job's own limit.
    public let timeout: Double

    /// Creates a loader.
    /// - Parameters:
    ///   - swiftExecutable: the `swift` to run; see ``locateSwift(environment:)``.
    ///   - maximumConcurrency: parallel `dump-package` runs; by default twice
    ///     the cores, because each run waits on the compiler for part of its time.
    ///   - cacheDirectory: where to cache dumps (created when needed); `nil`
    ///     to dump every manifest on every run.
    ///   - timeout: seconds one `dump-package` may run (default 60).
    public init(
        swiftExecutable: String, maximumConcurrency: Int? = nil, cacheDirectory: String? = nil, timeout: Double = 60
    ) {
        self.swiftExecutable = swiftExecutable
        self.maximumConcurrency = max(1, maximumConcurrency ?? ProcessInfo.processInfo.activeProcessorCount * 2)
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
    }

    /// Finds `swift` in the process environment; see ``locateSwift(environment:)``.
    /// - Throws: ``ArchCheckError/swiftNotFound`` when there is none.
    public static func locateSwift() throws -> String {
        try locateSwift(environment: ProcessInfo.processInfo.environment)
    }

    /// Finds `swift`: `$ARCH_CHECK_SWIFT` if set, else the first `swift` on `$PATH`.
    /// - Parameter environment: the environment variables to look in.
    /// - Throws: ``ArchCheckError/swiftNotFound`` when there is none.
    public static func locateSwift(environment: [String: String]) throws -> String {
        if let explicit = environment["ARCH_CHECK_SWIFT"], !explicit.isEmpty {
            return explicit
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ArchCheckError.swiftNotFound
    }

    /// What identifies the toolchain in cache keys: the resolved path of
    /// `swift` with its size and modification time (a new toolchain is a
    /// new file), without starting a process.
    func toolchainIdentity() -> String {
        let resolved = URL(fileURLWithPath: swiftExecutable).resolvingSymlinksInPath().path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        return "\(resolved) \(size) \(modified)"
    }

    /// The cache key of a package: its `Package*.swift` files (the manifest
    /// and any version-specific ones), its path and the toolchain.
    func cacheKey(directory: String, toolchain: String) -> String? {
        guard
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
                .filter({ $0.hasPrefix("Package") && $0.hasSuffix(".swift") }).sorted(),
            !names.isEmpty
        else { return nil }
        var hash = SHA256()
        hash.update(field: "arch-check dump-package cache 1")
        hash.update(field: toolchain)
        hash.update(field: directory)
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return nil }
            hash.update(field: name)
            hash.update(data)
            hash.update([0])
        }
        return hash.hexDigest()
    }

    /// Dumps one package (no cache).
    /// - Parameters:
    ///   - directory: absolute path of the package directory.
    ///   - displayName: how errors name the package (its manifest's path from the root).
    ///   - workDirectory: a folder of this run for `TMPDIR` and scratch paths.
    /// - Returns: the JSON `dump-package` printed.
    /// - Throws: ``ArchCheckError/dumpPackageFailed(package:status:stderr:)``
    ///   when SwiftPM rejects the manifest or cannot run.
    func dump(directory: String, displayName: String, workDirectory: String) async throws -> Data {
        let scratch = workDirectory + "/scratch-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = workDirectory + "/tmp"
        let output: ProcessRunner.Output
        do {
            output = try await ProcessRunner.run(
                swiftExecutable,
                arguments: [
                    "package", "--manifest-cache", "none", "--scratch-path", scratch,
                    "dump-package", "--package-path", directory,
                ],
                environment: environment, timeout: timeout)
        } catch {
            throw ArchCheckError.dumpPackageFailed(
                package: displayName, status: -1, stderr: "could not run \(swiftExecutable): \(error)")
        }
        if output.timedOut {
            throw ArchCheckError.manifestTimeout(package: displayName, seconds: timeout)
        }
        guard output.status == 0 else {
            throw ArchCheckError.dumpPackageFailed(
                package: displayName, status: output.status,
                stderr: String(decoding: output.standardError, as: UTF8.self))
        }
        return output.standardOutput
    }

    /// Loads one package: from the cache, else by dumping it (and caching
    /// the result).
    private func load(
        directory: String, displayName: String, workDirectory: String, toolchain: String
    ) async throws -> (PackageManifest, cacheFile: String?) {
        let key = cacheDirectory != nil ? cacheKey(directory: directory, toolchain: toolchain) : nil
        let cacheFile = key.flatMap { key in cacheDirectory.map { "\($0)/\(key).json" } }
        if let cacheFile, let data = FileManager.default.contents(atPath: cacheFile),
            let manifest = try? PackageManifest.decode(json: data, directory: directory)
        {
            return (manifest, cacheFile)
        }
        let data = try await dump(directory: directory, displayName: displayName, workDirectory: workDirectory)
        let manifest: PackageManifest
        do {
            manifest = try PackageManifest.decode(json: data, directory: directory)
        } catch ArchCheckError.invalidDump(_, let reason) {
            throw ArchCheckError.invalidDump(package: displayName, reason: reason)
        }
        if let cacheFile {
            // Written beside and renamed, so a concurrent run never reads half a file.
            let partial = cacheFile + ".partial-" + UUID().uuidString
            if FileManager.default.createFile(atPath: partial, contents: data), rename(partial, cacheFile) != 0 {
                try? FileManager.default.removeItem(atPath: partial)
            }
        }
        return (manifest, cacheFile)
    }

    /// Loads many packages concurrently (at most ``maximumConcurrency``
    /// dumps at once), from the cache where it can.
    /// - Parameter packages: absolute directory and display name of each package.
    /// - Returns: manifests keyed by absolute directory.
    /// - Throws: the error of the first package (in the given order) that failed.
    public func loadAll(_ packages: [(directory: String, displayName: String)]) async throws
        -> [String: PackageManifest]
    {
        try await loadAllNotingCache(packages).manifests
    }

    /// Removes cached dumps other than `used` (file names), so the cache
    /// holds one entry per manifest of the tree.
    func pruneCache(keeping used: Set<String>) {
        guard let cacheDirectory, let entries = try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)
        else { return }
        for entry in entries where entry.hasSuffix(".json") && !used.contains(entry) {
            try? FileManager.default.removeItem(atPath: cacheDirectory + "/" + entry)
        }
    }

    /// ``loadAll(_:)``, also returning the names of the cache files used.
    func loadAllNotingCache(_ packages: [(directory: String, displayName: String)]) async throws
        -> (manifests: [String: PackageManifest], cacheFiles: Set<String>)
    {
        typealias Outcome = (index: Int, result: Result<(PackageManifest, cacheFile: String?), any Error>)
        let fileManager = FileManager.default
        var cacheUsable = false
        if let cacheDirectory {
            cacheUsable =
                (try? fileManager.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)) != nil
        }
        let loader =
            cacheUsable
            ? self
            : ManifestLoader(swiftExecutable: swiftExecutable, maximumConcurrency: maximumConcurrency, timeout: timeout)
        // This run's folder for TMPDIR and scratch paths, removed at the end.
        let workParent = cacheUsable ? cacheDirectory! : fileManager.temporaryDirectory.path
        let workDirectory = workParent + "/run-" + UUID().uuidString
        try? fileManager.createDirectory(atPath: workDirectory + "/tmp", withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(atPath: workDirectory) }
        let toolchain = toolchainIdentity()

        // The child task for package `index` (a plain function rather than a
        // nested function capturing the inout group, which crashed in
        // release builds: a collected result went missing).
        let work: @Sendable (Int) async -> Outcome = { index in
            let package = packages[index]
            do {
                return (
                    index,
                    .success(
                        try await loader.load(
                            directory: package.directory, displayName: package.displayName,
                            workDirectory: workDirectory, toolchain: toolchain))
                )
            } catch {
                return (index, .failure(error))
            }
        }
        let results = await withTaskGroup(
            of: Outcome.self, returning: [Int: Result<(PackageManifest, cacheFile: String?), any Error>].self
        ) { group in
            var collected: [Int: Result<(PackageManifest, cacheFile: String?), any Error>] = [:]
            var next = 0
            while next < min(loader.maximumConcurrency, packages.count) {
                let index = next
                group.addTask { await work(index) }
                next += 1
            }
            while let outcome = await group.next() {
                collected[outcome.index] = outcome.result
                if next < packages.count {
                    let index = next
                    group.addTask { await work(index) }
                    next += 1
                }
            }
            return collected
        }
        var manifests: [String: PackageManifest] = [:]
        var used: Set<String> = []
        for index in packages.indices {
            guard let result = results[index] else {
                throw ArchCheckError.invalidDump(
                    package: packages[index].displayName, reason: "no result was collected")
            }
            let (manifest, cacheFile) = try result.get()
            manifests[packages[index].directory] = manifest
            if let cacheFile { used.insert((cacheFile as NSString).lastPathComponent) }
        }
        return (manifests, used)
    }
}
