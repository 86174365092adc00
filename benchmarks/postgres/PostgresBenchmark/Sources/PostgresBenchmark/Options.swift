import BenchmarkSupport

/// The command line of `postgres-benchmark`.
struct Options {
    static let usage = """
        Usage: postgres-benchmark [--server PATH] [--seconds N] [--connections N]
                                  [--pgbench-seconds N] [--db-dir DIR]

          --server PATH         a release share-server binary; by default the benchmark
                                runs `swift build -c release --product share-server` in
                                the repository root and uses that
          --seconds N           length of each measured window, one process and two
                                (default 10, at most 30: proofs are made before it and
                                must stay inside the server's 60-second iat window)
          --connections N       concurrent keep-alive connections, one user each, spread
                                over the processes in turn (default 8)
          --pgbench-seconds N   length of each of the two pgbench runs (before the windows
                                and after them) (default 5)
          --db-dir DIR          where the run's directory (seed, uploads, logs) goes
                                (default $TMPDIR or /tmp); PostgreSQL's cluster goes to a
                                directory of its own under $TMPDIR or /tmp

        PostgreSQL runs with its durable defaults (fsync, full_page_writes,
        synchronous_commit on); pgbench runs `pgbench -n -f one-insert.sql -c 8 -T N`.
        Without PostgreSQL's programs or pgbench it prints `skipped: REASON` and exits 0.
        """

    var server: String?
    var seconds = 10.0
    var connections = 8
    var pgbenchSeconds = 5.0
    var databaseDirectory: String?

    /// Parses the arguments.
    /// - Throws: ``Arguments/UsageError`` for a command line that cannot be used (or `--help`).
    init(_ arguments: [String]) throws {
        var rest = Arguments(arguments, usage: Self.usage)
        func positive(_ flag: String) throws -> Double {
            guard let number = Double(try rest.value(flag)), number > 0, number.isFinite else {
                throw rest.error("\(flag) must be a positive number")
            }
            return number
        }
        while let argument = rest.next() {
            switch argument {
            case "--server": server = try rest.value(argument)
            case "--seconds": seconds = try positive(argument)
            case "--connections":
                guard let number = Int(try rest.value(argument)), (2...256).contains(number) else {
                    throw rest.error("--connections must be 2 to 256 (they are spread over two processes)")
                }
                connections = number
            case "--pgbench-seconds": pgbenchSeconds = try positive(argument)
            case "--db-dir": databaseDirectory = try rest.value(argument)
            case "--help", "-h": throw rest.error(argument)
            default: throw rest.error("unknown argument \(argument)")
            }
        }
        guard seconds <= 30 else { throw rest.error("--seconds is at most 30: every proof is made before the window") }
    }
}
