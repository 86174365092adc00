public import Foundation

/// The violations a team knows of and has not fixed yet, kept in a file
/// (`--baseline FILE`, written by `--update-baseline FILE`), so a contract
/// can be turned on in CI before the code keeps it: known violations are
/// reported as notes, new ones still fail.
///
/// An entry matches on contract, file, using target and used target or
/// module, not on the line: edits elsewhere in the file do not make it
/// stale. One entry covers every import of that module in that file.
/// The file has one entry per line, so a review shows each one added or
/// removed.
public struct Baseline: Sendable, Equatable {
    /// One known violation.
    public struct Entry: Sendable, Hashable, Codable {
        /// The contract's name.
        public let contract: String
        /// The file, relative to the root.
        public let file: String
        /// The using target.
        public let from: String
        /// The used target or module.
        public let to: String
        /// The message when it was recorded, for the reader (not matched).
        public let message: String

        /// Creates an entry.
        public init(contract: String, file: String, from: String, to: String, message: String) {
            self.contract = contract
            self.file = file
            self.from = from
            self.to = to
            self.message = message
        }

        /// The entry recording `violation`.
        public init(_ violation: Violation) {
            self.init(
                contract: violation.contract, file: violation.location.file, from: violation.from, to: violation.to,
                message: violation.message)
        }

        /// Whether it records `violation`.
        public func matches(_ violation: Violation) -> Bool {
            contract == violation.contract && file == violation.location.file && from == violation.from
                && to == violation.to
        }
    }

    /// The entries, in file order.
    public var entries: [Entry]

    /// Creates a baseline.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The baseline of a result: one entry per failing violation, each
    /// once, sorted.
    public init(recording result: CheckResult) {
        var seen: Set<Entry> = []
        entries = result.violations.filter { $0.severity != .warning }.map(Entry.init).filter {
            seen.insert($0).inserted
        }
    }

    /// Reads a baseline file.
    /// - Throws: ``ArchCheckError/unreadable(path:reason:)`` when the file
    ///   cannot be read, ``ArchCheckError/usage(_:)`` when it is not a
    ///   baseline.
    public static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArchCheckError.unreadable(
                path: path, reason: "no such file (write it with --update-baseline \(path))")
        }
        struct Document: Decodable {
            let version: Int
            let violations: [Entry]
        }
        do {
            let document = try JSONDecoder().decode(Document.self, from: data)
            guard document.version == 1 else {
                throw ArchCheckError.usage("baseline \(path) has version \(document.version); this arch-check reads 1")
            }
            return Baseline(entries: document.violations)
        } catch let error as ArchCheckError {
            throw error
        } catch {
            throw ArchCheckError.usage(
                "\(path) is not an arch-check baseline ({\"version\": 1, \"violations\": [...]}): \(error)")
        }
    }

    /// The file's text: one entry per line.
    public func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = try entries.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        return "{\"version\": 1, \"violations\": [\n" + lines.map { "  " + $0 }.joined(separator: ",\n")
            + (lines.isEmpty ? "" : "\n") + "]}\n"
    }

    /// Writes the file (beside, then renamed).
    /// - Throws: ``ArchCheckError/unreadable(path:reason:)`` when it cannot be written.
    public func write(to path: String) throws {
        do {
            try Data(try text().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ArchCheckError.unreadable(path: path, reason: "cannot write the baseline: \(error)")
        }
    }

    /// `result` with the violations this baseline lists marked known, and
    /// a note (or, with `strict`, an error in the baseline file) per entry
    /// that matches nothing any more.
    /// - Parameters:
    ///   - result: the check's result.
    ///   - file: how messages name the baseline file.
    ///   - strict: whether a stale entry fails the run.
    public func apply(to result: CheckResult, file: String, strict: Bool) -> CheckResult {
        var used = Array(repeating: false, count: entries.count)
        var contracts: [ContractResult] = []
        var stale: [String: [Violation]] = [:]
        for contract in result.contracts {
            let violations = contract.violations.map { violation -> Violation in
                guard let index = entries.firstIndex(where: { $0.matches(violation) }) else { return violation }
                used[index] = true
                var known = violation
                if known.severity == .error { known.severity = .known }
                return known
            }
            contracts.append(contract.replacing(violations: violations))
        }
        var notes = result.notes
        for (index, entry) in entries.enumerated() where !used[index] {
            let description = "[\(entry.contract)] \(entry.from) -> \(entry.to) in \(entry.file)"
            let message =
                "stale baseline entry: \(description) matches no violation any more; remove it (or run --update-baseline)"
            // An entry of a contract no longer configured has no result to
            // fail: it stays a note even when strict.
            if strict && result.contracts.contains(where: { $0.name == entry.contract }) {
                // Line 2 onwards: the file has one entry per line after `{"version": 1, …[`.
                stale[entry.contract, default: []].append(
                    Violation(
                        location: SourceLocation(file: file, line: index + 2, column: 3), contract: entry.contract,
                        message: message, from: entry.from, to: entry.to))
            } else {
                notes.append("\(file):\(index + 2): note: \(message)")
            }
        }
        contracts = contracts.map { contract in
            guard let extra = stale[contract.name] else { return contract }
            return contract.replacing(violations: contract.violations + extra)
        }
        return result.replacing(contracts: contracts, notes: notes)
    }
}
