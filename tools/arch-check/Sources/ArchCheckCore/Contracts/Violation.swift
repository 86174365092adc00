/// One broken rule at one place.
public struct Violation: Sendable, Hashable, Comparable {
    /// How much a violation counts.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Fails the run (exit status 1).
        case error
        /// From a contract with `"level": "warn"`: shown, does not fail the run.
        case warning
        /// Listed in the `--baseline` file: a violation the team knows of
        /// and has not fixed yet; shown as a note, does not fail the run.
        case known
    }

    /// Where: a source file's import or a manifest entry.
    public let location: SourceLocation
    /// The name of the contract it breaks, as the configuration gives it.
    public let contract: String
    /// What is wrong and how to fix it.
    public let message: String
    /// The `#if` conditions around the import at fault (empty when it is
    /// unconditional or the violation is in a manifest).
    public let conditions: [String]
    /// The target that uses something it should not (as messages name it).
    /// With ``to``, what baselines and `ignore` entries match on, because
    /// unlike a line number it survives edits elsewhere in the file.
    public let from: String
    /// What it uses: a target or module name (a C library for duplicate
    /// shims).
    public let to: String
    /// Whether it fails the run.
    public var severity: Severity

    /// Creates a violation.
    public init(
        location: SourceLocation, contract: String, message: String, conditions: [String] = [], from: String = "",
        to: String = "", severity: Severity = .error
    ) {
        self.location = location
        self.contract = contract
        self.message = message
        self.conditions = conditions
        self.from = from
        self.to = to
        self.severity = severity
    }

    /// The diagnostic line: `path:line:col: error: [contract] message`
    /// (`warning:` for a warn-level contract, `note: … (in the baseline)`
    /// for a known one).
    public var line: String {
        switch severity {
        case .error: "\(location): error: [\(contract)] \(message)"
        case .warning: "\(location): warning: [\(contract)] \(message)"
        case .known: "\(location): note: [\(contract)] (in the baseline) \(message)"
        }
    }

    /// `[contract] from -> to in file`: how notes name it without a line.
    public var edgeDescription: String {
        "[\(contract)] \(from) -> \(to) in \(location.file)"
    }

    /// Orders by place, then contract name, then message.
    public static func < (lhs: Violation, rhs: Violation) -> Bool {
        (lhs.location, lhs.contract, lhs.message) < (rhs.location, rhs.contract, rhs.message)
    }
}
