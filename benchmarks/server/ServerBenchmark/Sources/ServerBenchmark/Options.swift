import Foundation

/// The command line of `server-benchmark`.
struct Options {
    /// A command line that cannot be used, for a person.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        Usage: server-benchmark [--server PATH] [--seconds N] [--connections N]
                                [--verify-seconds N] [--db-dir DIR] [--quiet-server]

          --server PATH         a release share-server binary; by default the benchmark
                                runs `swift build -c release --product share-server` in
                                the repository root and uses that
          --seconds N           length of the measured window (default 10, at most 30:
                                proofs are made before it and must stay inside the
                                server's 60-second iat window)
          --connections N       concurrent keep-alive connections, one user each (default 8)
          --verify-seconds N    length of the DPoP verify measurement, and of each of the
                                two SQLite commit measurements (before and after the
                                window) (default 3)
          --db-dir DIR          where the run's temporary directory (seed, database,
                                request log) goes (default /tmp); /dev/shm takes the
                                disk's fsync out of the figures
          --quiet-server        start the server with --quiet (no request log); by
                                default its request log goes to a file, as in production
        """

    var server: String?
    var seconds = 10.0
    var connections = 8
    var verifySeconds = 3.0
    var databaseDirectory = "/tmp"
    var quietServer = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw UsageError(description: "\(name) needs a value") }
            return next
        }
        func positive(_ name: String) throws -> Double {
            guard let number = Double(try value(name)), number > 0 else {
                throw UsageError(description: "\(name) must be a positive number")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--server": server = try value(argument)
            case "--seconds": seconds = try positive(argument)
            case "--connections":
                guard let number = Int(try value(argument)), (1...256).contains(number) else {
                    throw UsageError(description: "--connections must be 1 to 256")
                }
                connections = number
            case "--verify-seconds": verifySeconds = try positive(argument)
            case "--db-dir": databaseDirectory = try value(argument)
            case "--quiet-server": quietServer = true
            case "--help", "-h": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown argument \(argument)\n\(Self.usage)")
            }
        }
        guard seconds <= 30 else {
            throw UsageError(description: "--seconds is at most 30: every proof is made before the window")
        }
    }
}
