/// The command line: `upload-benchmark [--size-mib N] [--runs N] [--file PATH]`.
struct Options {
    /// A command line that cannot be understood.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        usage: upload-benchmark [--size-mib N] [--runs N] [--file PATH] [--no-pin]
          --size-mib N   size of the generated file in MiB (default 512)
          --runs N       uploads per client, alternating; medians are compared (default 5)
          --file PATH    upload this file instead of generating one
          --no-pin       let the scheduler place uploader and sink (default: uploader on
                         core 0, sink on core 1, through taskset)
        """

    var sizeMiB = 512
    var runs = 5
    var file: String?
    var pin = true

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--size-mib": sizeMiB = try Self.number(argument, rest.popFirst())
            case "--runs": runs = try Self.number(argument, rest.popFirst())
            case "--file":
                guard let path = rest.popFirst() else { throw UsageError(description: "--file needs a path") }
                file = path
            case "--no-pin": pin = false
            case "-h", "--help": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown option \(argument)\n\(Self.usage)")
            }
        }
    }

    private static func number(_ option: String, _ value: String?) throws -> Int {
        guard let value, let number = Int(value), number > 0 else {
            throw UsageError(description: "\(option) needs a positive number")
        }
        return number
    }
}
