/// The outcome of a whole check: every contract, plus what was read.
public struct CheckResult: Sendable {
    /// How much of the tree was read.
    public struct Statistics: Sendable, Hashable, Codable {
        /// Packages dumped.
        public let packages: Int
        /// Targets declared.
        public let targets: Int
        /// Swift files scanned.
        public let files: Int
        /// Import declarations found.
        public let imports: Int

        /// Creates statistics.
        public init(packages: Int, targets: Int, files: Int, imports: Int) {
            self.packages = packages
            self.targets = targets
            self.files = files
            self.imports = imports
        }
    }

    /// One result per contract, in the configuration's order.
    public let contracts: [ContractResult]
    /// Remarks that are not violations (unresolvable dependencies).
    public let notes: [String]
    /// How much was read.
    public let statistics: Statistics

    /// Creates a result.
    public init(contracts: [ContractResult], notes: [String] = [], statistics: Statistics) {
        self.contracts = contracts
        self.notes = notes
        self.statistics = statistics
    }

    /// All violations, sorted by place, then in the configuration's order
    /// of their contracts.
    public var violations: [Violation] {
        contracts.enumerated().flatMap { index, contract in contract.violations.map { (index, $0) } }
            .sorted { ($0.1.location, $0.0, $0.1.message) < ($1.1.location, $1.0, $1.1.message) }
            .map(\.1)
    }

    /// Number of contracts kept.
    public var keptCount: Int { contracts.filter(\.isKept).count }

    /// Number of contracts broken (with at least one error).
    public var brokenCount: Int { contracts.filter(\.isBroken).count }

    /// Violations that fail the run.
    public var errors: [Violation] { violations.filter { $0.severity == .error } }

    /// `arch-check: 6 contracts, 5 kept, 1 broken (1 violation)`, with
    /// `, 4 known` and `, 2 warnings` when there are any.
    public var summaryLine: String {
        let all = violations
        let count = all.filter { $0.severity == .error }.count
        let known = all.filter { $0.severity == .known }.count
        let warnings = all.filter { $0.severity == .warning }.count
        var detail = "\(count) violation\(count == 1 ? "" : "s")"
        if known > 0 { detail += ", \(known) known" }
        if warnings > 0 { detail += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
        return "arch-check: \(contracts.count) contracts, \(keptCount) kept, \(brokenCount) broken (\(detail))"
    }

    /// 0 when no violation is an error, 1 otherwise.
    public var exitCode: Int32 { errors.isEmpty ? 0 : 1 }

    /// The same result with other contract results and notes (after a
    /// baseline is applied).
    public func replacing(contracts: [ContractResult], notes: [String]) -> CheckResult {
        CheckResult(contracts: contracts, notes: notes, statistics: statistics)
    }
}
