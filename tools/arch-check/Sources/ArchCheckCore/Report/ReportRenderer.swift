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
    /// per violation, then the summary line as plain text.
    public static func github(_ result: CheckResult) -> String {
        let lines = result.violations.map { violation in
            let location = violation.location
            return
                "::error file=\(escapeProperty(location.file)),line=\(location.line),col=\(location.column)::\(escapeData("[\(violation.contract)] \(violation.message)"))"
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
            let count = contract.violations.count
            lines.append(
                contract.isKept
                    ? "\(contract.name) KEPT"
                    : "\(contract.name) BROKEN (\(count) violation\(count == 1 ? "" : "s"))")
        }
        lines.append("")
        lines.append("Contracts: \(result.keptCount) kept, \(result.brokenCount) broken.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The machine-readable report: `{contracts: [{name, type, status,
    /// violations: [{file, line, column, contract, message, conditional,
    /// conditions}]}], summary: {…}, notes: […]}`.
    /// - Throws: an encoding error (not expected: all values are plain).
    public static func json(_ result: CheckResult) throws -> String {
        let document = Document(
            contracts: result.contracts.map { contract in
                .init(
                    name: contract.name, type: contract.type, status: contract.isKept ? "kept" : "broken",
                    violations: contract.violations.map { violation in
                        .init(
                            file: violation.location.file, line: violation.location.line,
                            column: violation.location.column, contract: violation.contract,
                            message: violation.message, conditional: !violation.conditions.isEmpty,
                            conditions: violation.conditions)
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
