/// Positional arguments of a helper command, with a usage message when one
/// is missing or malformed.
struct HelperArguments {
    private let values: [String]
    private let usage: String

    /// Wraps the arguments after the command name.
    /// - Parameters:
    ///   - values: the arguments.
    ///   - usage: the command's synopsis for error messages.
    init(_ values: [String], usage: String) {
        self.values = values
        self.usage = usage
    }

    /// The argument at `index`.
    /// - Throws: ``HelperFailure`` naming the usage when absent.
    func string(_ index: Int) throws -> String {
        guard index < values.count else { throw HelperFailure("usage: \(usage)") }
        return values[index]
    }

    /// The integer argument at `index`.
    /// - Throws: ``HelperFailure`` naming the usage when absent or not a number.
    func integer(_ index: Int) throws -> Int {
        guard let n = Int(try string(index)) else { throw HelperFailure("usage: \(usage)") }
        return n
    }
}
