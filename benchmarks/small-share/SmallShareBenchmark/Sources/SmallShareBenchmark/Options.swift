import BenchmarkSupport

/// The command line of the benchmark.
struct Options {
    static let usage = "usage: small-share-benchmark [--bin DIR] [--pairs N] [--version-runs N] [--tmp DIR]"

    /// The directory with release `share-server`, `share-daemon` and `share`; built from the repository when nil.
    var binDirectory: String?
    /// Paired runs of `share send --text` and `curl` (the goal is stated for 15).
    var pairs = 15
    /// Runs of `share --version`.
    var versionRuns = 30
    /// Where the run's temporary directory (database, the client's container) is made.
    var temporaryParent: String?

    init(_ arguments: [String]) throws {
        var line = Arguments(arguments, usage: Self.usage)
        while let flag = line.next() {
            switch flag {
            case "--bin": binDirectory = try line.value(flag)
            case "--tmp": temporaryParent = try line.value(flag)
            case "--pairs": pairs = try line.integer(flag, in: 1...1000)
            case "--version-runs": versionRuns = try line.integer(flag, in: 1...1000)
            case "-h", "--help": throw line.error(flag)
            default: throw line.error("unknown argument \(flag)")
            }
        }
    }
}
