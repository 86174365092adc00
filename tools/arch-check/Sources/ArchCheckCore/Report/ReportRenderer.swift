import Foundation

/// Turns a ``CheckResult`` into what a person or a program reads.
///
/// Standard output carries the diagnostics (one `file:line:col: error:` line
/// per violation, then the summary) or the JSON document; standard error
/// carries the per-contract `KEPT`/`BROKEN` overview in the style of
/// import-linter and any notes, so piping stdout into an editor or a
/// problem matcher sees only diagnostics.
public enum ReportRenderer {
    /// Violation lines then the summary line, newline-terminated.
    public static func diagnostics(_ result: CheckResult) -> String {
        (result.violations.map(\.line) + [result.summaryLine]).joined(separator: "\n") + "\n"
    }

    /// GitHub Actions workflow commands, one `::error file=…,line=…,col=…::`
    /// per violation (`::warning` for a warn-level contract, `::notice` for
    /// a baseline entry), then the summary line as plain text.
    public static func github(_ result: CheckResult) -> String {
        let lines = result.violations.map { violation in
            let location = violation.location
            let command =
                switch violation.severity {
                case .error: "error"
                case .warning: "warning"
                case .known: "notice"
                }
            return
                "::\(command) file=\(escapeProperty(location.file)),line=\(location.line),col=\(location.column)::\(escapeData("[\(violation.contract)] \(violation.message)"))"
        }
        return (lines + [result.summaryLine]).joined(separator: "\n") + "\n"
    }

    /// Escapes the message of a workflow command (`%`, CR, LF).
    public static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value of a workflow command (also `:` and `,`).
    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// The per-contract overview for standard error, newline-terminated.
    public static func overview(_ result: CheckResult) -> String {
        var lines = result.notes
        if !lines.isEmpty { lines.append("") }
        let statistics = result.statistics
        lines.append("Contracts")
        lines.append("---------")
        lines.append(
            "Analyzed \(statistics.packages) packages, \(statistics.targets) targets, \(statistics.files) files, \(statistics.imports) imports."
        )
        lines.append("")
        for contract in result.contracts {
            lines.append(overviewLine(contract))
        }
        lines.append("")
        lines.append("Contracts: \(result.keptCount) kept, \(result.brokenCount) broken.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Name KEPT`, `Name BROKEN (2 violations)` or `Name WARNED (1
    /// violation)`, with how many violations were ignored (and why) or are
    /// known from the baseline.
    static func overviewLine(_ contract: ContractResult) -> String {
        func count(_ number: Int) -> String { "\(number) violation\(number == 1 ? "" : "s")" }
        var details: [String] = []
        if contract.isBroken {
            details.append(count(contract.errors.count))
        } else if !contract.isKept {
            details.append(count(contract.warnings.count))
        }
        let known = contract.violations.filter { $0.severity == .known }.count
        if known > 0 { details.append("\(known) known") }
        if contract.ignoredCount > 0 {
            let reasons = contract.ignoreReasons.isEmpty ? "" : ": " + contract.ignoreReasons.joined(separator: "; ")
            details.append("\(contract.ignoredCount) ignored\(reasons)")
        }
        let status = contract.isBroken ? "BROKEN" : contract.isKept ? "KEPT" : "WARNED"
        return "\(contract.name) \(status)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// The machine-readable report: `{contracts: [{name, type, status,
    /// violations: [{file, line, column, contract, message, conditional,
    /// conditions}]}], summary: {…}, notes: […]}`.
    /// - Throws: an encoding error (not expected: all values are plain).
    public static func json(_ result: CheckResult) throws -> String {
        let document = Document(
            contracts: result.contracts.map { contract in
                .init(
                    name: contract.name, type: contract.type, status: contract.status,
                    violations: contract.violations.map { violation in
                        .init(
                            file: violation.location.file, line: violation.location.line,
                            column: violation.location.column, contract: violation.contract,
                            message: violation.message, conditional: !violation.conditions.isEmpty,
                            conditions: violation.conditions, severity: violation.severity.rawValue,
                            from: violation.from, to: violation.to)
                    })
            },
            summary: .init(
                contracts: result.contracts.count, kept: result.keptCount, broken: result.brokenCount,
                violations: result.violations.count, packages: result.statistics.packages,
                targets: result.statistics.targets, files: result.statistics.files,
                imports: result.statistics.imports, line: result.summaryLine),
            notes: result.notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// The JSON document's shape.
    private struct Document: Encodable {
        struct Contract: Encodable {
            let name: String
            let type: String
            let status: String
            let violations: [Entry]
        }
        struct Entry: Encodable {
            let file: String
            let line: Int
            let column: Int
            let contract: String
            let message: String
            let conditional: Bool
            let conditions: [String]
            let severity: String
            let from: String
            let to: String
        }
        struct Summary: Encodable {
            let contracts: Int
            let kept: Int
            let broken: Int
            let violations: Int
            let packages: Int
            let targets: Int
            let files: Int
            let imports: Int
            let line: String
        }
        let contracts: [Contract]
        let summary: Summary
        let notes: [String]
    }
}
