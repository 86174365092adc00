import BenchmarkSupport

/// The command line of the benchmark.
struct Options {
    static let usage =
        "usage: share-memory-benchmark [--bin DIR] [--sizes MiB,MiB,...] [--text-runs N] [--part-mib N] [--tmp DIR]"

    /// The directory with release `share-server`, `share-daemon` and `share`; built from the repository when nil.
    var binDirectory: String?
    /// The file sizes in MiB, each shared by its own `share send` process (after the 1 MiB reference).
    var sizesMiB = [256, 2048]
    /// Where the run's temporary directory (files, database, the client's container) is made.
    var temporaryParent: String?
    /// Runs of `share send --text hi` whose peak RSS is measured.
    var textRuns = 5
    /// The server's `upload_part_size` in MiB (its seed's limit).
    var partMiB = 8

    init(_ arguments: [String]) throws {
        var line = Arguments(arguments, usage: Self.usage)
        while let flag = line.next() {
            switch flag {
            case "--bin": binDirectory = try line.value(flag)
            case "--tmp": temporaryParent = try line.value(flag)
            case "--text-runs": textRuns = try line.integer(flag, in: 1...100)
            case "--part-mib": partMiB = try line.integer(flag, in: 1...1024)
            case "--sizes":
                let text = try line.value(flag)
                let sizes = text.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count, sizes.allSatisfy({ $0 > 0 })
                else { throw line.error("--sizes takes MiB counts like 256,2048") }
                sizesMiB = sizes
            case "-h", "--help": throw line.error(flag)
            default: throw line.error("unknown argument \(flag)")
            }
        }
    }
}
