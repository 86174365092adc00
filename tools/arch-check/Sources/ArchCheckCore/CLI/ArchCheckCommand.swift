import Foundation

/// The `arch-check` command: parse options, check, report, pick the exit
/// status. The executable's `main.swift` only calls ``main(arguments:)``, so
/// everything here is testable in-process.
public enum ArchCheckCommand {
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
    /// - Parameter options: root, swift executable and concurrency.
    /// - Returns: the check result.
    /// - Throws: ``ArchCheckError`` when the tree cannot be read (no root
    ///   manifest, a manifest that does not evaluate, no `swift`).
    public static func check(_ options: CommandLineOptions) async throws -> CheckResult {
        let swift = try options.swiftExecutable ?? ManifestLoader.locateSwift()
        let scanner = RepositoryScanner(
            root: options.root, loader: ManifestLoader(swiftExecutable: swift, maximumConcurrency: options.jobs))
        return ContractChecker.check(try await scanner.scan())
    }

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: the arguments without the program name.
    ///   - output: where to write.
    /// - Returns: the exit status: 0 kept, 1 violations, 2 usage or tool error.
    public static func run(arguments: [String], output: Output = .console) async -> Int32 {
        do {
            let options = try CommandLineOptions.parse(arguments)
            if options.help {
                output.standardOutput(CommandLineOptions.usage)
                return 0
            }
            let result = try await check(options)
            output.standardError(ReportRenderer.overview(result))
            output.standardOutput(options.json ? try ReportRenderer.json(result) : ReportRenderer.diagnostics(result))
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
