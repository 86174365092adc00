/// A benchmark's command line, read flag by flag.
public struct Arguments {
    /// A command line that does not fit; the benchmark exits with status 2.
    public struct UsageError: Error, CustomStringConvertible {
        /// What is wrong, followed by the usage line.
        public let description: String
    }

    private var rest: ArraySlice<String>
    private let usage: String

    /// - Parameters:
    ///   - arguments: the arguments after the program's name.
    ///   - usage: the usage line, appended to every error.
    public init(_ arguments: [String], usage: String) {
        rest = arguments[...]
        self.usage = usage
    }

    /// The next flag, nil at the end.
    public mutating func next() -> String? { rest.popFirst() }

    /// The value after `flag`.
    /// - Throws: ``UsageError`` when there is none.
    public mutating func value(_ flag: String) throws -> String {
        guard let next = rest.popFirst() else { throw error("\(flag) needs a value") }
        return next
    }

    /// The whole number after `flag`, within `range`.
    /// - Throws: ``UsageError`` naming the range when there is none, or it
    ///   is not a number in the range.
    public mutating func integer(_ flag: String, in range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(try value(flag)), range.contains(number) else {
            throw error("\(flag) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A usage error: `problem` and the usage line (only the usage line for
    /// `-h` and `--help`).
    public func error(_ problem: String) -> UsageError {
        UsageError(description: problem == "-h" || problem == "--help" ? usage : "\(problem)\n\(usage)")
    }
}
