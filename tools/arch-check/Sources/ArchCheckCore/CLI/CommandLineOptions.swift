/// The parsed command line of `arch-check`.
public struct CommandLineOptions: Sendable, Equatable {
    /// How the report is printed on standard output.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        /// `path:line:col: error: [contract] message` lines and the summary.
        case text
        /// GitHub Actions `::error file=…,line=…,col=…::` annotations.
        case github
        /// One JSON document.
        case json
        /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers
        /// (no limit on the number of results shown, unlike annotations).
        case sarif
    }

    /// `--root DIR`: the tree to check (default: the current directory).
    public var root: String = "."
    /// `--config FILE`: the configuration (default: `.arch-check.json` at the root).
    public var config: String?
    /// `--format text|github|json` (`--json` is `--format json`).
    public var format: Format = .text
    /// `--swift PATH`: the `swift` to run `dump-package` with.
    public var swiftExecutable: String?
    /// `--jobs N`: at most N `dump-package` runs at once.
    public var jobs: Int?
    /// `--cache-dir DIR`: where manifest dumps are cached (default:
    /// `.build/arch-check-cache` under the root).
    public var cacheDirectory: String?
    /// `--no-cache`: dump every manifest, read and write no cache.
    public var noCache = false
    /// `--list-targets`: list every target (name as contracts write it,
    /// package, kind, source folder, dependencies, imports) on stderr.
    public var listTargets = false
    /// `--help`: print usage and exit 0.
    public var help = false
    /// `--version`: print the version and exit 0.
    public var version = false
    /// `--baseline FILE`: violations listed there are known, not failures.
    public var baseline: String?
    /// `--update-baseline FILE`: write every current violation there and exit 0.
    public var updateBaseline: String?
    /// `--strict-baseline`: a baseline entry that matches nothing fails the run.
    public var strictBaseline = false
    /// `--manifest-timeout SECONDS`: how long one `dump-package` may run
    /// before it (and every process it started) is stopped.
    public var manifestTimeout: Double = 60

    /// Creates the defaults.
    public init() {}

    /// The configuration file: `--config`, else `.arch-check.json` at the root.
    public var configPath: String {
        config ?? (root.hasSuffix("/") ? root : root + "/") + Configuration.defaultFileName
    }

    /// Parses the arguments (without the program name).
    /// - Throws: ``ArchCheckError/usage(_:)`` for an unknown option, a
    ///   missing value or a stray argument.
    public static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        func value(for option: String, inline: String?) throws -> String {
            if let inline { return inline }
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw ArchCheckError.usage("\(option) needs a value")
            }
            return next
        }
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch name {
            case "--root": options.root = try value(for: name, inline: inline)
            case "--config": options.config = try value(for: name, inline: inline)
            case "--format":
                let text = try value(for: name, inline: inline)
                guard let format = Format(rawValue: text) else {
                    throw ArchCheckError.usage("unknown format \(text) (known: text, github, json, sarif)")
                }
                options.format = format
            case "--swift": options.swiftExecutable = try value(for: name, inline: inline)
            case "--cache-dir": options.cacheDirectory = try value(for: name, inline: inline)
            case "--jobs":
                guard let jobs = Int(try value(for: name, inline: inline)), jobs > 0 else {
                    throw ArchCheckError.usage("--jobs needs a positive number")
                }
                options.jobs = jobs
            case "--baseline": options.baseline = try value(for: name, inline: inline)
            case "--update-baseline": options.updateBaseline = try value(for: name, inline: inline)
            case "--strict-baseline" where inline == nil: options.strictBaseline = true
            case "--manifest-timeout":
                let text = try value(for: name, inline: inline)
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw ArchCheckError.usage(
                        "--manifest-timeout needs a number of seconds above 0 (at most 86400), not \(text)")
                }
                options.manifestTimeout = seconds
            case "--version" where inline == nil: options.version = true
            case "--json" where inline == nil: options.format = .json
            case "--no-cache" where inline == nil: options.noCache = true
            case "--list-targets" where inline == nil, "--verbose" where inline == nil, "-v" where inline == nil:
                options.listTargets = true
            case "--help", "-h": options.help = true
            default: throw ArchCheckError.usage("unknown argument \(argument)")
            }
        }
        if options.strictBaseline && options.baseline == nil {
            throw ArchCheckError.usage("--strict-baseline needs --baseline FILE")
        }
        return options
    }

    /// The `--help` text.
    public static var usage: String {
        let types = ContractDefinition.types.map { "  \($0.type.padding(20))\($0.summary) (\($0.members))" }
        return """
            USAGE: arch-check [--root DIR] [--config FILE] [--format text|github|json|sarif] [options]

            Checks architecture contracts of a Swift repository: reads every Package.swift
            under the root (with `swift package dump-package`, cached) and every import in
            the sources, and checks the contracts of the configuration file.

            OPTIONS:
              --root DIR        repository root (default: the current directory)
              --config FILE     configuration (default: .arch-check.json at the root)
              --format FORMAT   text (default), github (Actions annotations), json or sarif (SARIF 2.1.0)
              --json            same as --format json
              --baseline FILE   violations listed in FILE are known: reported as notes, not failures
              --update-baseline FILE
                                write every current violation to FILE and exit 0
              --strict-baseline a baseline entry that matches no violation fails the run
              --manifest-timeout SECONDS
                                stop a dump-package that runs longer (default: 60)
              --list-targets    list every target as contracts name it, on stderr
              --cache-dir DIR   cache of manifest dumps (default: ROOT/.build/arch-check-cache)
              --no-cache        dump every manifest again, use and write no cache
              --swift PATH      swift executable for dump-package (default: $ARCH_CHECK_SWIFT, then PATH)
              --jobs N          run at most N dump-package processes at once (default: 2 x cores)
              --version         print the version
              -h, --help        show this help

            CONTRACT TYPES (members; ? optional; every contract has "name" and "type", may have "advice",
            "allowUnmatched", "ignore": [{"from", "to", "reason"?}] and "level": "error"|"warn"):
            \(types.joined(separator: "\n"))

            EXIT STATUS: 0 no violation fails (warnings and baseline entries do not), 1 violations found,
            2 bad configuration, usage or tool error.

            """
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
