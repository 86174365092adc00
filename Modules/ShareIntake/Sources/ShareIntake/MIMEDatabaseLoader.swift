internal import CLibXML2
import Foundation

/// Reads the XML source files of the shared MIME database
/// (`<dir>/mime/packages/*.xml`) with libxml2's streaming reader: only the
/// elements intake uses are looked at, comments in forty languages and
/// magic rules are skipped as whole subtrees.
enum MIMEDatabaseLoader {
    /// The `mime/packages` directories of the XDG base directory
    /// specification, most important first: `$XDG_DATA_HOME` (default
    /// `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`).
    static func searchDirectories(environment: [String: String]) -> [String] {
        var bases: [String] = []
        if let home = environment["XDG_DATA_HOME"], !home.isEmpty {
            bases.append(home)
        } else if let home = environment["HOME"], !home.isEmpty {
            bases.append(home + "/.local/share")
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        bases += dirs.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        var seen: Set<String> = []
        return bases.map { $0 + "/mime/packages" }.filter { seen.insert($0).inserted }
    }

    /// Loads every `*.xml` of the directories. A later (less important)
    /// directory is read first so that a more important one may replace its
    /// globs (`<glob-deleteall/>`); relations and aliases are merged.
    /// - Parameter directories: `mime/packages` directories, most important first.
    /// - Returns: the database.
    /// - Throws: ``MIMEDatabaseError/notFound(searched:)`` when no directory
    ///   holds a readable XML file that defines a type.
    static func load(directories: [String]) throws(MIMEDatabaseError) -> MIMEDatabase {
        var state = ParseState()
        var readDirectories: [String] = []
        var failures: [String] = []
        for directory in directories.reversed() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            let files = names.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted()
            var readOne = false
            for name in files {
                let path = directory + "/" + name
                if parse(file: path, into: &state) { readOne = true } else { failures.append(path) }
            }
            if readOne { readDirectories.insert(directory, at: 0) }
        }
        guard !state.types.isEmpty else {
            throw failures.isEmpty ? .notFound(searched: directories) : .unreadable(paths: failures)
        }
        let globs = state.globs.flatMap { type, globs in
            globs.map {
                GlobIndex.Glob(
                    pattern: $0.pattern, contentType: type, weight: $0.weight, caseSensitive: $0.caseSensitive)
            }
        }
        return MIMEDatabase(
            types: state.types, aliases: state.aliases, globs: GlobIndex(globs), directories: readDirectories)
    }

    /// What the files said so far.
    private struct ParseState {
        var types: [String: MIMEDatabase.TypeRecord] = [:]
        var aliases: [String: String] = [:]
        var globs: [String: [GlobIndex.Glob]] = [:]
    }

    /// Reads one file into `state`.
    /// - Returns: false when the file is not well-formed XML (it is then
    ///   ignored as a whole: a half-read file would give half the relations).
    private static func parse(file path: String, into state: inout ParseState) -> Bool {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        guard let reader = xmlReaderForFile(path, nil, options) else { return false }
        defer { xmlFreeTextReader(reader) }
        var local = ParseState()
        var currentType: String?
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            guard xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) else {
                status = xmlTextReaderRead(reader)
                continue
            }
            let depth = xmlTextReaderDepth(reader)
            let name = string(xmlTextReaderConstLocalName(reader)) ?? ""
            switch (depth, name) {
            case (1, "mime-type"):
                currentType = attribute(reader, "type").map(MIMEDatabase.bare)
                if let type = currentType, local.types[type] == nil { local.types[type] = .init() }
            case (2, "sub-class-of"):
                if let type = currentType, let parent = attribute(reader, "type").map(MIMEDatabase.bare) {
                    local.types[type]?.parents.append(parent)
                }
            case (2, "alias"):
                if let type = currentType, let alias = attribute(reader, "type").map(MIMEDatabase.bare) {
                    local.aliases[alias] = type
                }
            case (2, "glob"):
                if let type = currentType, let pattern = attribute(reader, "pattern"), pattern != "__NOGLOBS__" {
                    let weight = attribute(reader, "weight").flatMap { Int($0) } ?? 50
                    let caseSensitive = attribute(reader, "case-sensitive") == "true"
                    local.globs[type, default: []].append(
                        .init(pattern: pattern, contentType: type, weight: weight, caseSensitive: caseSensitive))
                    if pattern.hasPrefix("*."), !pattern.dropFirst(2).contains(where: { "*?[".contains($0) }) {
                        local.types[type]?.extensions.append(String(pattern.dropFirst(2)))
                    }
                }
            case (2, "glob-deleteall"):
                if let type = currentType {
                    state.globs[type] = nil
                    state.types[type]?.extensions = []
                }
            case (0, _), (1, _):
                break
            default:
                // Comments, icons, magic and the like: skip their subtrees unread.
                status = xmlTextReaderNext(reader)
                continue
            }
            status = xmlTextReaderRead(reader)
        }
        guard status == 0 else { return false }
        merge(local, into: &state)
        return true
    }

    private static func merge(_ local: ParseState, into state: inout ParseState) {
        for (type, record) in local.types {
            var merged = state.types[type] ?? .init()
            merged.parents += record.parents.filter { !merged.parents.contains($0) }
            merged.extensions += record.extensions.filter { !merged.extensions.contains($0) }
            state.types[type] = merged
        }
        state.aliases.merge(local.aliases) { _, new in new }
        for (type, globs) in local.globs { state.globs[type, default: []] += globs }
    }

    private static func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
        let found = name.withCString {
            $0.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) {
                xmlTextReaderMoveToAttribute(reader, $0)
            }
        }
        guard found == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(reader) }
        return string(xmlTextReaderConstValue(reader))
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
