/// The outcome of one contract.
public struct ContractResult: Sendable, Hashable {
    /// Which contract.
    public let name: ContractName
    /// Its violations, sorted; empty when kept.
    public let violations: [Violation]

    /// Creates a result.
    public init(name: ContractName, violations: [Violation]) {
        self.name = name
        self.violations = violations.sorted()
    }

    /// Whether the contract holds.
    public var isKept: Bool { violations.isEmpty }
}
