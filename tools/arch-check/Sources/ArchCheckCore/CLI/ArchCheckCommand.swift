import Foundation

/// The `arch-check` command: parse options, check, report, pick the exit
/// status. The executable's `main.swift` only calls ``main(arguments:)``, so
/// everything here is testable in-process.
public enum ArchCheckCommand {
    /// The version `--version` prints and SARIF reports name.
    public static let version = "1.1.0"

    /// Where the command writes: standard output and standard error, or a
    /// test's buffers.
    public struct Output: Sendable {
        /// Receives standard-output text.
        public let standardOutput: @Sendable (String) -> Void
        /// Receives standard-error text.
        public let standardError: @Sendable (String) -> Void

        /// Creates an output pair.
        public init(
            standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void
        ) {
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        /// The process's own standard output and standard error.
        public static let console = Output(
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Checks a tree with the given options.
    /// - Parameter options: root, configuration, swift executable, cache and concurrency.
    /// - Returns: the check result.
    /// - Throws: ``ArchCheckError`` when the configuration is wrong or the
    ///   tree cannot be read (no manifest, a manifest that does not evaluate,
    ///   no `swift`).
    public static func check(_ options: CommandLineOptions) async throws -> CheckResult {
        try checkRoot(options)
        let configuration = try Configuration.load(path: options.configPath, lenient: true)
        let model = try await scan(options, configuration: configuration)
        let result = try ContractChecker.check(
            model, configuration: configuration, configurationFile: options.configPath)
        guard let path = options.baseline else { return result }
        return try Baseline.load(path: path).apply(to: result, file: path, strict: options.strictBaseline)
    }

    /// Fails with a message about `--root` itself when it names no folder,
    /// rather than about the configuration file missing inside it.
    static func checkRoot(_ options: CommandLineOptions) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.root, isDirectory: &isDirectory) else {
            throw ArchCheckError.usage("--root \(options.root): no such folder")
        }
        guard isDirectory.boolValue else { throw ArchCheckError.usage("--root \(options.root) is not a folder") }
    }

    /// Reads the tree into a model without checking it.
    /// - Parameters:
    ///   - options: root, swift executable, cache and concurrency.
    ///   - configuration: gives the excluded folders.
    /// - Returns: the repository model.
    /// - Throws: ``ArchCheckError`` as ``check(_:)`` does.
    public static func scan(_ options: CommandLineOptions, configuration: Configuration) async throws
        -> RepositoryModel
    {
        let swift = try options.swiftExecutable ?? ManifestLoader.locateSwift()
        let root = RepositoryScanner.canonicalPath(options.root)
        let cache = options.noCache ? nil : options.cacheDirectory ?? root + "/.build/arch-check-cache"
        let scanner = RepositoryScanner(
            root: root,
            loader: ManifestLoader(
                swiftExecutable: swift, maximumConcurrency: options.jobs, cacheDirectory: cache,
                timeout: options.manifestTimeout),
            exclude: configuration.exclude)
        return try await scanner.scan()
    }

    /// One line per target for `--list-targets`: the name contracts use,
    /// package folder, kind, source folder, direct dependencies and what its
    /// sources import.
    /// - Parameter model: the scanned repository.
    /// - Returns: the listing, newline-terminated.
    public static func targetListing(_ model: RepositoryModel) -> String {
        let names = model.displayNames()
        var lines: [String] = []
        for target in model.targets.values.sorted(by: { $0.id < $1.id }) {
            let dependencies = model.directDependencies(of: target.id).map { names[$0] ?? $0.name }.sorted()
            let files = model.sources[target.id] ?? []
            let imports = Set(files.flatMap { $0.imports.map(\.module) }).sorted()
            var line = "\(names[target.id] ?? target.name) (\(target.type.rawValue), package \(target.id.package))"
            line += " sources: \(target.sourceDirectory)"
            line += " deps: [\(dependencies.joined(separator: ", "))]"
            line += " imports: [\(imports.joined(separator: ", "))] in \(files.count) files"
            if !target.systemLibraries.isEmpty { line += " libraries: \(target.systemLibraries)" }
            if target.isExternal { line += " (external, not checked)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: the arguments without the program name.
    ///   - output: where to write.
    /// - Returns: the exit status: 0 kept, 1 violations, 2 configuration, usage or tool error.
    public static func run(arguments: [String], output: Output = .console) async -> Int32 {
        do {
            let options = try CommandLineOptions.parse(arguments)
            if options.help {
                output.standardOutput(CommandLineOptions.usage)
                return 0
            }
            if options.version {
                output.standardOutput("arch-check \(version)\n")
                return 0
            }
            try checkRoot(options)
            let configuration = try Configuration.load(path: options.configPath, lenient: true)
            let model = try await scan(options, configuration: configuration)
            if options.listTargets { output.standardError(targetListing(model) + "\n") }
            var result = try ContractChecker.check(
                model, configuration: configuration, configurationFile: options.configPath)
            if let path = options.updateBaseline {
                let baseline = Baseline(recording: result)
                try baseline.write(to: path)
                output.standardError(
                    "arch-check: wrote \(baseline.entries.count) entries (\(result.errors.count) violations) to the baseline \(path); pass --baseline \(path) to report them as known\n"
                )
                return 0
            }
            if let path = options.baseline {
                result = try Baseline.load(path: path).apply(to: result, file: path, strict: options.strictBaseline)
            }
            output.standardError(ReportRenderer.overview(result))
            switch options.format {
            case .text: output.standardOutput(ReportRenderer.diagnostics(result))
            case .github: output.standardOutput(ReportRenderer.github(result))
            case .json: output.standardOutput(try ReportRenderer.json(result))
            case .sarif: output.standardOutput(try SARIFRenderer.render(result, version: version))
            }
            return result.exitCode
        } catch let error as ArchCheckError {
            output.standardError("arch-check: error: \(error.description)\n")
            return 2
        } catch {
            output.standardError("arch-check: error: \(error)\n")
            return 2
        }
    }

    /// Entry point for `main.swift`.
    /// - Parameter arguments: `CommandLine.arguments` (program name first).
    /// - Returns: the exit status to pass to `exit`.
    public static func main(arguments: [String] = CommandLine.arguments) async -> Int32 {
        await run(arguments: Array(arguments.dropFirst()))
    }
}
