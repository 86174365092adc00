/// The outcome of one contract.
public struct ContractResult: Sendable, Hashable {
    /// The contract's name from the configuration.
    public let name: String
    /// The contract's type (`layers`, `forbidden`, …).
    public let type: String
    /// Its violations (errors, warnings and known ones), sorted.
    public let violations: [Violation]
    /// How many violations its `ignore` entries removed.
    public let ignoredCount: Int
    /// The reasons the matching `ignore` entries give, for the overview.
    public let ignoreReasons: [String]

    /// Creates a result.
    public init(
        name: String, type: String, violations: [Violation], ignoredCount: Int = 0, ignoreReasons: [String] = []
    ) {
        self.name = name
        self.type = type
        self.violations = violations.sorted()
        self.ignoredCount = ignoredCount
        self.ignoreReasons = ignoreReasons
    }

    /// The same result with other violations (after a baseline is applied).
    public func replacing(violations: [Violation]) -> ContractResult {
        ContractResult(
            name: name, type: type, violations: violations, ignoredCount: ignoredCount, ignoreReasons: ignoreReasons)
    }

    /// Violations that fail the run.
    public var errors: [Violation] { violations.filter { $0.severity == .error } }

    /// Violations of a warn-level contract.
    public var warnings: [Violation] { violations.filter { $0.severity == .warning } }

    /// Whether the contract holds: nothing but known (baselined) violations.
    public var isKept: Bool { errors.isEmpty && warnings.isEmpty }

    /// Whether it fails the run.
    public var isBroken: Bool { !errors.isEmpty }

    /// `kept`, `broken` or `warned` (only warnings).
    public var status: String { isBroken ? "broken" : isKept ? "kept" : "warned" }
}
