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

    /// Creates a configuration.
    public init(exclude: [String] = [], contracts: [ContractDefinition]) {
        self.exclude = exclude
        self.contracts = contracts
    }

    /// Reads and parses a configuration file.
    /// - Parameter path: the file.
    /// - Throws: ``ArchCheckError/configuration(file:message:)`` when it is
    ///   missing, not JSON, or not a valid configuration.
    public static func load(path: String) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArchCheckError.configuration(
                file: path,
                message:
                    "no such file; write one (see the README's configuration reference) or pass --config FILE")
        }
        return try parse(data, file: path)
    }

    /// Parses a configuration document.
    /// - Parameters:
    ///   - data: the JSON text.
    ///   - file: how errors name the file.
    /// - Throws: ``ArchCheckError/configuration(file:message:)`` naming the
    ///   problem (malformed JSON, unknown key or type, a missing name or
    ///   member, a member of the wrong kind, two contracts of one name).
    public static func parse(_ data: Data, file: String) throws -> Configuration {
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
        for (index, entry) in entries.enumerated() {
            let contract = try parseContract(entry, index: index, fail: fail)
            guard names.insert(contract.name).inserted else {
                throw fail("two contracts are named \"\(contract.name)\"; names must be unique")
            }
            contracts.append(contract)
        }
        return Configuration(exclude: exclude, contracts: contracts)
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
            "composition-root": ["targets", "roots", "implementations"],
        ]
        guard let allowed = members[type] else {
            throw fail(
                "\(label) has unknown type \"\(type)\" (known: \(ContractDefinition.types.map(\.type).joined(separator: ", ")))"
            )
        }
        for key in object.keys.sorted()
        where !(["name", "type", "advice", "allowUnmatched", "comment"] + allowed).contains(key) {
            throw fail(
                "\(label): unknown member \"\(key)\" for type \(type) (known: \((allowed + ["advice", "allowUnmatched"]).joined(separator: ", ")))"
            )
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
        default:  // composition-root
            kind = .compositionRoot(
                targets: try selectors("targets", required: true)!, roots: try selectors("roots", required: true)!,
                implementations: try selectors("implementations", required: true)!)
        }
        return ContractDefinition(name: name, kind: kind, advice: advice, allowUnmatched: allowUnmatched)
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
