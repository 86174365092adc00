public import Foundation

/// The contents of an `.arch-check.json`: which folders to leave out and
/// the contracts to check.
///
/// ```json
/// {"exclude": ["Benchmarks"],
///  "contracts": [
///    {"name": "Core stays below Posix", "type": "forbidden",
///     "source": ["NIOCore"], "forbidden": ["NIOPosix", "NIO"]}]}
/// ```
public struct Configuration: Sendable, Hashable {
    /// The default file name, looked for at the root.
    public static let defaultFileName = ".arch-check.json"

    /// Folder globs (relative to the root) whose packages are not read.
    public var exclude: [String]
    /// The contracts, in the order they are reported.
    public var contracts: [ContractDefinition]
    /// What is wrong with contracts that could not be read (they are left
    /// out of ``contracts``); only ``load(path:lenient:)`` and
    /// ``parse(_:file:lenient:)`` with `lenient` return a configuration with
    /// problems, so that the names of the others can be checked too and
    /// every mistake reported in one run.
    public var problems: [String]

    /// Creates a configuration.
    public init(exclude: [String] = [], contracts: [ContractDefinition], problems: [String] = []) {
        self.exclude = exclude
        self.contracts = contracts
        self.problems = problems
    }

    /// Reads and parses a configuration file.
    /// - Parameters:
    ///   - path: the file.
    ///   - lenient: return contract-level problems in ``problems`` instead
    ///     of throwing them.
    /// - Throws: ``ArchCheckError/configuration(file:message:)`` when it is
    ///   missing, not JSON, or not a valid configuration.
    public static func load(path: String, lenient: Bool = false) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArchCheckError.configuration(
                file: path,
                message:
                    "no such file; write one (see the README's configuration reference) or pass --config FILE")
        }
        return try parse(data, file: path, lenient: lenient)
    }

    /// The error for a list of problems: the one problem as it is, or all
    /// of them under a count.
    public static func error(file: String, problems: [String]) -> ArchCheckError {
        guard problems.count > 1 else { return .configuration(file: file, message: problems.first ?? "") }
        return .configuration(
            file: file,
            message: "\(problems.count) configuration errors:\n" + problems.map { "  - \($0)" }.joined(separator: "\n"))
    }

    /// Parses a configuration document.
    /// - Parameters:
    ///   - data: the JSON text.
    ///   - file: how errors name the file.
    ///   - lenient: return contract-level problems in ``problems`` instead
    ///     of throwing them.
    /// - Throws: ``ArchCheckError/configuration(file:message:)`` naming
    ///   every problem (malformed JSON, unknown key or type, a missing name
    ///   or member, a member of the wrong kind, two contracts of one name).
    public static func parse(_ data: Data, file: String, lenient: Bool = false) throws -> Configuration {
        func fail(_ message: String) -> ArchCheckError { .configuration(file: file, message: message) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail("not valid JSON (\(Self.describe(error)))")
        }
        guard let root = object as? [String: Any] else { throw fail("the top level must be a JSON object") }
        for key in root.keys.sorted() where !["contracts", "exclude", "$schema", "comment"].contains(key) {
            throw fail("unknown top-level key \"\(key)\" (known: contracts, exclude)")
        }
        let exclude = try strings(root["exclude"], what: "\"exclude\"", fail: fail) ?? []
        guard let list = root["contracts"] else { throw fail("no \"contracts\" list") }
        guard let entries = list as? [Any] else { throw fail("\"contracts\" must be a list") }
        var contracts: [ContractDefinition] = []
        var names: Set<String> = []
        var problems: [String] = []
        for (index, entry) in entries.enumerated() {
            do {
                let contract = try parseContract(entry, index: index, fail: fail)
                guard names.insert(contract.name).inserted else {
                    throw fail("two contracts are named \"\(contract.name)\"; names must be unique")
                }
                contracts.append(contract)
            } catch ArchCheckError.configuration(_, let message) {
                problems.append(message)
            }
        }
        if !problems.isEmpty && !lenient { throw error(file: file, problems: problems) }
        return Configuration(exclude: exclude, contracts: contracts, problems: problems)
    }

    private static func parseContract(
        _ entry: Any, index: Int, fail: (String) -> ArchCheckError
    ) throws -> ContractDefinition {
        guard let object = entry as? [String: Any] else {
            throw fail("contract \(index + 1) must be a JSON object")
        }
        guard let rawName = object["name"] else { throw fail("contract \(index + 1) has no \"name\"") }
        guard let name = rawName as? String, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw fail("contract \(index + 1) has an empty or non-string \"name\"")
        }
        guard !name.contains("\n"), !name.contains("]") else {
            throw fail("contract \"\(name)\": a name may not contain a line break or \"]\"")
        }
        let label = "contract \"\(name)\""
        guard let type = object["type"] as? String else { throw fail("\(label) has no \"type\"") }
        let members: [String: [String]] = [
            "layers": ["layers"], "forbidden": ["source", "forbidden"], "independence": ["targets", "suggest"],
            "explicit-imports": ["targets", "allow", "reportUnknown"], "c-shims": ["targets"],
            "testing-only": ["targets", "users"], "no-exported-import": ["targets", "allow"],
            "composition-root": ["targets", "roots", "implementations"], "unused-dependencies": ["targets"],
        ]
        guard let allowed = members[type] else {
            throw fail(
                "\(label) has unknown type \"\(type)\" (known: \(ContractDefinition.types.map(\.type).joined(separator: ", ")))"
            )
        }
        for key in object.keys.sorted()
        where !(["name", "type", "advice", "allowUnmatched", "ignore", "level", "comment"] + allowed).contains(key) {
            throw fail(
                "\(label): unknown member \"\(key)\" for type \(type) (known: \((allowed + ["advice", "allowUnmatched", "ignore", "level"]).joined(separator: ", ")))"
            )
        }
        var level = ContractDefinition.Level.error
        if let value = object["level"] {
            guard let text = value as? String, let parsed = ContractDefinition.Level(rawValue: text) else {
                throw fail("\(label): \"level\" must be \"error\" or \"warn\"")
            }
            level = parsed
        }
        var ignore: [ContractDefinition.IgnoredEdge] = []
        if let value = object["ignore"] {
            let shape = "\(label): \"ignore\" must be a list of {\"from\": TARGET, \"to\": TARGET, \"reason\": TEXT}"
            guard let list = value as? [Any] else { throw fail(shape) }
            for item in list {
                guard let entry = item as? [String: Any], let from = entry["from"] as? String,
                    let to = entry["to"] as? String, !from.isEmpty, !to.isEmpty,
                    entry["reason"] == nil || entry["reason"] is String,
                    Set(entry.keys).isSubset(of: ["from", "to", "reason", "comment"])
                else { throw fail(shape) }
                ignore.append(.init(from: from, to: to, reason: entry["reason"] as? String))
            }
        }
        var advice: String?
        if let value = object["advice"] {
            guard let text = value as? String else { throw fail("\(label): \"advice\" must be a string") }
            advice = text
        }
        var allowUnmatched = false
        if let value = object["allowUnmatched"] {
            guard let flag = value as? Bool else { throw fail("\(label): \"allowUnmatched\" must be true or false") }
            allowUnmatched = flag
        }
        func selectors(_ key: String, required: Bool) throws -> [TargetSelector]? {
            guard let value = object[key] else {
                if required { throw fail("\(label) (\(type)) needs \"\(key)\"") }
                return nil
            }
            guard let list = value as? [Any] else {
                throw fail("\(label): \"\(key)\" must be a list of target names, patterns or {\"paths\": [...]}")
            }
            let parsed = try list.map { try selector($0, at: "\(label): \"\(key)\"", fail: fail) }
            if parsed.isEmpty { throw fail("\(label): \"\(key)\" is empty") }
            return parsed
        }
        func patterns(_ key: String) throws -> [String] {
            try strings(object[key], what: "\(label): \"\(key)\"", fail: fail) ?? []
        }
        let kind: ContractDefinition.Kind
        switch type {
        case "layers":
            guard let value = object["layers"] else { throw fail("\(label) (layers) needs \"layers\"") }
            guard let list = value as? [Any], list.count >= 2 else {
                throw fail("\(label): \"layers\" must list at least two entries, highest first")
            }
            kind = .layers(
                try list.enumerated().map { position, entry in
                    let place = "\(label): layer entry \(position + 1)"
                    if let siblings = entry as? [Any] {
                        guard !siblings.isEmpty else { throw fail("\(place) is an empty list") }
                        return try siblings.map { try selector($0, at: place, fail: fail) }
                    }
                    return [try selector(entry, at: place, fail: fail)]
                })
        case "forbidden":
            kind = .forbidden(
                source: try selectors("source", required: true)!, forbidden: try selectors("forbidden", required: true)!
            )
        case "independence":
            let targets = try selectors("targets", required: true)!
            kind = .independence(targets: targets, suggest: try patterns("suggest"))
        case "explicit-imports":
            var reportUnknown = false
            if let value = object["reportUnknown"] {
                guard let flag = value as? Bool else {
                    throw fail("\(label): \"reportUnknown\" must be true or false")
                }
                reportUnknown = flag
            }
            kind = .explicitImports(
                targets: try selectors("targets", required: false), allow: try patterns("allow"),
                reportUnknown: reportUnknown)
        case "c-shims":
            kind = .cShims(targets: try selectors("targets", required: false))
        case "testing-only":
            kind = .testingOnly(
                targets: try selectors("targets", required: true)!, users: try selectors("users", required: false) ?? []
            )
        case "no-exported-import":
            kind = .noExportedImport(targets: try selectors("targets", required: false), allow: try patterns("allow"))
        case "unused-dependencies":
            kind = .unusedDependencies(targets: try selectors("targets", required: false))
        default:  // composition-root
            kind = .compositionRoot(
                targets: try selectors("targets", required: true)!, roots: try selectors("roots", required: true)!,
                implementations: try selectors("implementations", required: true)!)
        }
        return ContractDefinition(
            name: name, kind: kind, advice: advice, allowUnmatched: allowUnmatched, ignore: ignore, level: level)
    }

    /// A selector: a name pattern string, or `{"targets": [...], "paths": [...]}`.
    private static func selector(_ value: Any, at place: String, fail: (String) -> ArchCheckError) throws
        -> TargetSelector
    {
        if let name = value as? String {
            guard !name.isEmpty else { throw fail("\(place): an empty target name") }
            return TargetSelector(names: [name])
        }
        guard let object = value as? [String: Any] else {
            throw fail("\(place): \(value) is neither a target name nor {\"paths\": [...]}")
        }
        for key in object.keys.sorted() where key != "targets" && key != "paths" {
            throw fail("\(place): unknown selector key \"\(key)\" (known: targets, paths)")
        }
        let names = try strings(object["targets"], what: "\(place): \"targets\"", fail: fail) ?? []
        let paths = try strings(object["paths"], what: "\(place): \"paths\"", fail: fail) ?? []
        guard !names.isEmpty || !paths.isEmpty else {
            throw fail("\(place): a selector object needs \"targets\" or \"paths\"")
        }
        return TargetSelector(names: names, paths: paths)
    }

    private static func strings(_ value: Any?, what: String, fail: (String) -> ArchCheckError) throws -> [String]? {
        guard let value else { return nil }
        guard let list = value as? [Any], let strings = list as? [String], strings.allSatisfy({ !$0.isEmpty }) else {
            throw fail("\(what) must be a list of non-empty strings")
        }
        return strings
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }
}
