/// One broken rule at one place.
public struct Violation: Sendable, Hashable, Comparable {
    /// Where: a source file's import or a manifest entry.
    public let location: SourceLocation
    /// The name of the contract it breaks, as the configuration gives it.
    public let contract: String
    /// What is wrong and how to fix it.
    public let message: String
    /// The `#if` conditions around the import at fault (empty when it is
    /// unconditional or the violation is in a manifest).
    public let conditions: [String]

    /// Creates a violation.
    public init(location: SourceLocation, contract: String, message: String, conditions: [String] = []) {
        self.location = location
        self.contract = contract
        self.message = message
        self.conditions = conditions
    }

    /// The diagnostic line: `path:line:col: error: [contract] message`.
    public var line: String {
        "\(location): error: [\(contract)] \(message)"
    }

    /// Orders by place, then contract name, then message.
    public static func < (lhs: Violation, rhs: Violation) -> Bool {
        (lhs.location, lhs.contract, lhs.message) < (rhs.location, rhs.contract, rhs.message)
    }
}
