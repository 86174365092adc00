/// The outcome of one contract.
public struct ContractResult: Sendable, Hashable {
    /// The contract's name from the configuration.
    public let name: String
    /// The contract's type (`layers`, `forbidden`, …).
    public let type: String
    /// Its violations, sorted; empty when kept.
    public let violations: [Violation]

    /// Creates a result.
    public init(name: String, type: String, violations: [Violation]) {
        self.name = name
        self.type = type
        self.violations = violations.sorted()
    }

    /// Whether the contract holds.
    public var isKept: Bool { violations.isEmpty }
}
