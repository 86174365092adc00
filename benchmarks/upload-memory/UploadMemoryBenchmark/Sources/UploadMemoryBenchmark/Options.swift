/// The command line of the benchmark (not of `--child`).
struct Options {
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage =
        "usage: upload-memory-benchmark [--server PATH] [--sizes MiB,MiB,...] [--tmp DIR] [--quiet-server]"

    /// A release share-server; built from the repository when nil.
    var server: String?
    /// The file sizes in MiB, each uploaded by its own fresh process.
    var sizesMiB = [256, 2048]
    /// Where the run's temporary directory (files, database) is made.
    var temporaryParent: String?
    /// Whether to pass `--quiet` to the server.
    var quietServer = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else {
                throw UsageError(description: "\(flag) needs a value\n\(Self.usage)")
            }
            return next
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--server": server = try value(flag)
            case "--tmp": temporaryParent = try value(flag)
            case "--quiet-server": quietServer = true
            case "--sizes":
                let text = try value(flag)
                let sizes = text.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count, sizes.allSatisfy({ $0 > 0 })
                else { throw UsageError(description: "--sizes takes MiB counts like 256,2048\n\(Self.usage)") }
                sizesMiB = sizes
            case "-h", "--help": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown argument \(flag)\n\(Self.usage)")
            }
        }
    }
}
