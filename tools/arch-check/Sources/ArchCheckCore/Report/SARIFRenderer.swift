import Foundation

/// Writes a ``CheckResult`` as SARIF 2.1.0 (OASIS Static Analysis Results
/// Interchange Format), the format GitHub code scanning uploads: every
/// violation is shown, where workflow annotations stop at a few per step.
///
/// One rule per contract (its id is the name in lower case with dashes),
/// one result per violation with its contract's rule, a level (`error`,
/// `warning` for a warn-level contract, `note` for a baseline entry, which
/// also carries an external suppression), the message and the position
/// relative to the checked root (`%SRCROOT%`).
public enum SARIFRenderer {
    /// The SARIF document, newline-terminated.
    /// - Parameters:
    ///   - result: what the check found.
    ///   - version: arch-check's version, for the tool description.
    /// - Throws: an encoding error (not expected: all values are plain).
    public static func render(_ result: CheckResult, version: String) throws -> String {
        var ruleIndex: [String: Int] = [:]
        var rules: [Rule] = []
        for contract in result.contracts where ruleIndex[contract.name] == nil {
            ruleIndex[contract.name] = rules.count
            rules.append(
                Rule(
                    id: ruleID(contract.name), name: contract.name,
                    shortDescription: .init(text: "\(contract.name) (\(contract.type) contract)"),
                    properties: .init(type: contract.type)))
        }
        let results = result.violations.map { violation -> Entry in
            let index = ruleIndex[violation.contract] ?? 0
            let location = violation.location
            return Entry(
                ruleId: rules.isEmpty ? ruleID(violation.contract) : rules[index].id, ruleIndex: index,
                level: level(violation.severity), message: .init(text: violation.message),
                locations: [
                    .init(
                        physicalLocation: .init(
                            artifactLocation: .init(uri: uri(location.file), uriBaseId: "%SRCROOT%"),
                            region: .init(startLine: max(1, location.line), startColumn: max(1, location.column))))
                ],
                suppressions: violation.severity == .known
                    ? [.init(kind: "external", justification: "listed in the arch-check baseline")] : nil,
                properties: .init(from: violation.from, to: violation.to, conditions: violation.conditions))
        }
        let log = Log(
            version: "2.1.0",
            schema: "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
            runs: [
                Run(
                    tool: .init(
                        driver: .init(
                            name: "arch-check", version: version, rules: rules)),
                    results: results,
                    invocations: [
                        .init(
                            executionSuccessful: true,
                            toolExecutionNotifications: result.notes.map {
                                .init(level: "note", message: .init(text: $0))
                            })
                    ])
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(log), as: UTF8.self) + "\n"
    }

    /// `Features apart` → `features-apart`: letters and digits kept, every
    /// other run of characters one dash.
    static func ruleID(_ name: String) -> String {
        var id = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty && !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return id.isEmpty ? "contract" : id
    }

    private static func level(_ severity: Violation.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .known: "note"
        }
    }

    /// A relative path as a URI reference: each component percent-encoded.
    private static func uri(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? String($0)
        }.joined(separator: "/")
    }

    // MARK: - The document's shape (the parts of SARIF 2.1.0 written)

    private struct Log: Encodable {
        let version: String
        let schema: String
        let runs: [Run]
        enum CodingKeys: String, CodingKey {
            case version, runs
            case schema = "$schema"
        }
    }
    private struct Run: Encodable {
        let tool: Tool
        let results: [Entry]
        let invocations: [Invocation]
    }
    private struct Tool: Encodable {
        let driver: Driver
    }
    private struct Driver: Encodable {
        let name: String
        let version: String
        let rules: [Rule]
    }
    private struct Rule: Encodable {
        let id: String
        let name: String
        let shortDescription: Message
        let properties: RuleProperties
    }
    private struct RuleProperties: Encodable {
        let type: String
    }
    private struct Message: Encodable {
        let text: String
    }
    private struct Entry: Encodable {
        let ruleId: String
        let ruleIndex: Int
        let level: String
        let message: Message
        let locations: [Location]
        let suppressions: [Suppression]?
        let properties: EntryProperties
    }
    private struct EntryProperties: Encodable {
        let from: String
        let to: String
        let conditions: [String]
    }
    private struct Suppression: Encodable {
        let kind: String
        let justification: String
    }
    private struct Location: Encodable {
        let physicalLocation: PhysicalLocation
    }
    private struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region
    }
    private struct ArtifactLocation: Encodable {
        let uri: String
        let uriBaseId: String
    }
    private struct Region: Encodable {
        let startLine: Int
        let startColumn: Int
    }
    private struct Invocation: Encodable {
        let executionSuccessful: Bool
        let toolExecutionNotifications: [Notification]
    }
    private struct Notification: Encodable {
        let level: String
        let message: Message
    }
}
