import BenchmarkSupport

/// The command line of the benchmark.
struct Options {
    static let usage =
        "usage: daemon-memory-benchmark [--bin DIR] [--shares N] [--step N] [--tmp DIR]"

    /// The directory with release `share-server`, `share-daemon` and `share`; built from the repository when nil.
    var binDirectory: String?
    /// How many shares are queued in all.
    var shares = 1000
    /// How many shares are queued between two readings.
    var step = 200
    /// Where the run's temporary directory is made.
    var temporaryParent: String?

    init(_ arguments: [String]) throws {
        var line = Arguments(arguments, usage: Self.usage)
        while let flag = line.next() {
            switch flag {
            case "--bin": binDirectory = try line.value(flag)
            case "--tmp": temporaryParent = try line.value(flag)
            case "--shares": shares = try line.integer(flag, in: 1...100_000)
            case "--step": step = try line.integer(flag, in: 1...100_000)
            case "-h", "--help": throw line.error(flag)
            default: throw line.error("unknown argument \(flag)")
            }
        }
        guard step <= shares else { throw line.error("--step must not be larger than --shares") }
    }
}
