import Foundation

/// Reads package manifests by running `swift package dump-package` on each,
/// several at a time.
///
/// Manifests are Swift programs; evaluating them in-process would mean
/// running the repository's code inside the checker. SwiftPM already
/// evaluates them in its sandboxed way and prints JSON, so the checker asks
/// it. `--manifest-cache none` keeps SwiftPM from writing a cache: every run
/// sees the manifests as they are now and leaves nothing on disk. Each run
/// also gets its own (never created) `--scratch-path`: with the default one,
/// `dump-package` waits for the `.build` lock of any `swift build` running in
/// that package, which would make the checker hang while a developer builds.
public struct ManifestLoader: Sendable {
    /// Path of the `swift` driver.
    public let swiftExecutable: String
    /// How many `dump-package` processes may run at once.
    public let maximumConcurrency: Int

    /// Creates a loader.
    /// - Parameters:
    ///   - swiftExecutable: the `swift` to run; see ``locateSwift(environment:)``.
    ///   - maximumConcurrency: parallel `dump-package` runs; by default twice
    ///     the cores, because each run waits on the compiler for part of its time.
    public init(swiftExecutable: String, maximumConcurrency: Int? = nil) {
        self.swiftExecutable = swiftExecutable
        self.maximumConcurrency = max(1, maximumConcurrency ?? ProcessInfo.processInfo.activeProcessorCount * 2)
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

    /// Dumps one package.
    /// - Parameters:
    ///   - directory: absolute path of the package directory.
    ///   - displayName: how errors name the package (its path from the root).
    /// - Throws: ``ArchCheckError/dumpPackageFailed(package:status:stderr:)``
    ///   when SwiftPM rejects the manifest, ``ArchCheckError/invalidDump(package:reason:)``
    ///   when its output is not the expected JSON.
    public func load(directory: String, displayName: String) async throws -> PackageManifest {
        let output: ProcessRunner.Output
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("arch-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            output = try await ProcessRunner.run(
                swiftExecutable,
                arguments: [
                    "package", "--manifest-cache", "none", "--scratch-path", scratch,
                    "dump-package", "--package-path", directory,
                ])
        } catch {
            throw ArchCheckError.dumpPackageFailed(
                package: displayName, status: -1, stderr: "could not run \(swiftExecutable): \(error)")
        }
        guard output.status == 0 else {
            throw ArchCheckError.dumpPackageFailed(
                package: displayName, status: output.status,
                stderr: String(decoding: output.standardError, as: UTF8.self))
        }
        do {
            return try PackageManifest.decode(json: output.standardOutput, directory: directory)
        } catch ArchCheckError.invalidDump(_, let reason) {
            throw ArchCheckError.invalidDump(package: displayName, reason: reason)
        }
    }

    /// Dumps many packages concurrently (at most ``maximumConcurrency`` at once).
    /// - Parameter packages: absolute directory and display name of each package.
    /// - Returns: manifests keyed by absolute directory.
    /// - Throws: the error of the first package (in the given order) that failed.
    public func loadAll(_ packages: [(directory: String, displayName: String)]) async throws -> [String:
        PackageManifest]
    {
        typealias Outcome = (index: Int, result: Result<PackageManifest, any Error>)
        // The child task for package `index` (a plain function rather than a
        // nested function capturing the inout group, which crashed in
        // release builds: a collected result went missing).
        let work: @Sendable (Int) async -> Outcome = { index in
            let package = packages[index]
            do {
                return (index, .success(try await load(directory: package.directory, displayName: package.displayName)))
            } catch {
                return (index, .failure(error))
            }
        }
        let results = await withTaskGroup(of: Outcome.self, returning: [Int: Result<PackageManifest, any Error>].self) {
            group in
            var collected: [Int: Result<PackageManifest, any Error>] = [:]
            var next = 0
            while next < min(maximumConcurrency, packages.count) {
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
        for index in packages.indices {
            guard let result = results[index] else {
                throw ArchCheckError.invalidDump(
                    package: packages[index].displayName, reason: "no result was collected")
            }
            let manifest = try result.get()
            manifests[packages[index].directory] = manifest
        }
        return manifests
    }
}
