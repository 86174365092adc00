/// One broken rule at one place.
public struct Violation: Sendable, Hashable, Comparable {
    /// Where: a source file's import or a manifest entry.
    public let location: SourceLocation
    /// Which contract it breaks.
    public let contract: ContractName
    /// What is wrong and how to fix it.
    public let message: String
    /// The `#if` conditions around the import at fault (empty when it is
    /// unconditional or the violation is in a manifest).
    public let conditions: [String]

    /// Creates a violation.
    public init(location: SourceLocation, contract: ContractName, message: String, conditions: [String] = []) {
        self.location = location
        self.contract = contract
        self.message = message
        self.conditions = conditions
    }

    /// The diagnostic line: `path:line:col: error: [contract] message`.
    public var line: String {
        "\(location): error: [\(contract.rawValue)] \(message)"
    }

    /// Orders by place, then contract, then message.
    public static func < (lhs: Violation, rhs: Violation) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.contract != rhs.contract { return lhs.contract < rhs.contract }
        return lhs.message < rhs.message
    }
}
