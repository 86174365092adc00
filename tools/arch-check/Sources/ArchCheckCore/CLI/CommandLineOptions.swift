/// The parsed command line of `arch-check`.
public struct CommandLineOptions: Sendable, Equatable {
    /// `--root PATH`: the tree to check (default: the current directory).
    public var root: String = "."
    /// `--json`: print the JSON report instead of diagnostics.
    public var json = false
    /// `--swift PATH`: the `swift` to run `dump-package` with.
    public var swiftExecutable: String?
    /// `--jobs N`: at most N `dump-package` runs at once.
    public var jobs: Int?
    /// `--verbose`: list every target with its layer, dependencies and imports on stderr.
    public var verbose = false
    /// `--help`: print usage and exit 0.
    public var help = false

    /// Creates the defaults.
    public init() {}

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
            case "--swift": options.swiftExecutable = try value(for: name, inline: inline)
            case "--jobs":
                guard let jobs = Int(try value(for: name, inline: inline)), jobs > 0 else {
                    throw ArchCheckError.usage("--jobs needs a positive number")
                }
                options.jobs = jobs
            case "--json" where inline == nil: options.json = true
            case "--verbose" where inline == nil, "-v" where inline == nil: options.verbose = true
            case "--help", "-h": options.help = true
            default: throw ArchCheckError.usage("unknown argument \(argument)")
            }
        }
        return options
    }

    /// The `--help` text.
    public static var usage: String {
        let contracts = ContractName.allCases.map { "  \($0.rawValue.padding(18))\($0.summary)" }
        return """
            USAGE: arch-check [--root PATH] [--json] [--verbose] [--swift PATH] [--jobs N]

            Checks the architecture contracts of a ShareKit-style monorepo: reads every
            Package.swift with `swift package dump-package` and every import in the sources.

            OPTIONS:
              --root PATH   repository root (default: current directory; needs a Package.swift)
              --json        print a JSON report on stdout instead of diagnostics
              -v, --verbose list every target (layer, dependencies, imports) on stderr
              --swift PATH  swift executable for dump-package (default: $ARCH_CHECK_SWIFT, then PATH)
              --jobs N      run at most N dump-package processes at once (default: 2 x cores)
              -h, --help    show this help

            CONTRACTS:
            \(contracts.joined(separator: "\n"))

            EXIT STATUS: 0 all contracts kept, 1 violations found, 2 usage or tool error.

            """
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
