import BenchmarkSupport

/// The command line of the benchmark.
struct Options {
    static let usage =
        "usage: takeover-benchmark [--bin DIR] [--entries N] [--attachment] [--no-send] [--tmp DIR]"

    /// The directory with release `share-server`, `share-daemon` and `share`; built from the repository when nil.
    var binDirectory: String?
    /// How many inbox entries.
    var entries = 1000
    /// Whether each entry also carries a small text/plain file (else the text is in the manifest only).
    var attachment = false
    /// Whether to skip the part with the server and `share-daemon --once`.
    var noSend = false
    /// Where the run's temporary directory is made.
    var temporaryParent: String?

    init(_ arguments: [String]) throws {
        var line = Arguments(arguments, usage: Self.usage)
        while let flag = line.next() {
            switch flag {
            case "--bin": binDirectory = try line.value(flag)
            case "--tmp": temporaryParent = try line.value(flag)
            case "--attachment": attachment = true
            case "--no-send": noSend = true
            case "--entries": entries = try line.integer(flag, in: 1...1_000_000)
            case "-h", "--help": throw line.error(flag)
            default: throw line.error("unknown argument \(flag)")
            }
        }
    }
}
