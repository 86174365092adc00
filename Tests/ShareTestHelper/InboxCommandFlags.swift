/// `--name value` options of the inbox helper commands.
struct InboxCommandFlags {
    private let values: [String: String]
    private let usage: String

    /// Reads `--name value` pairs.
    /// - Parameters:
    ///   - arguments: the arguments after the command name.
    ///   - usage: the command's synopsis for error messages.
    /// - Throws: ``HelperFailure`` naming the usage for a stray argument.
    init(_ arguments: [String], usage: String) throws {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            guard arguments[index].hasPrefix("--"), index + 1 < arguments.count else {
                throw HelperFailure("usage: \(usage)")
            }
            values[String(arguments[index].dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        self.values = values
        self.usage = usage
    }

    /// The value of `--name`.
    /// - Throws: ``HelperFailure`` naming the usage when absent.
    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw HelperFailure("usage: \(usage)") }
        return value
    }

    /// The integer value of `--name`, or `fallback` when it is absent.
    /// - Throws: ``HelperFailure`` naming the usage when it is not a number.
    func integer(_ name: String, default fallback: Int? = nil) throws -> Int {
        guard let text = values[name] else {
            guard let fallback else { throw HelperFailure("usage: \(usage)") }
            return fallback
        }
        guard let number = Int(text) else { throw HelperFailure("usage: \(usage)") }
        return number
    }
}
