internal import CShareKitLibXML2
import ShareKitIntakeInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Loads the database of the directories: for each, its `mime.cache`
    /// when ``freshCache(packageDirectory:)`` finds one, else its XML files.
    /// - Parameter directories: `mime/packages` directories, most important first.
    /// - Returns: the database.
    /// - Throws: ``IntakeError/mimeDatabaseNotFound(searched:)`` when no directory
    ///   holds a valid cache or a readable XML file that defines a type,
    ///   ``IntakeError/mimeDatabaseUnreadable(paths:)`` when XML files were found
    ///   but none parses.
    static func load(directories: [String]) throws(IntakeError) -> MIMEDatabase {
        var sources: [any MIMESource] = []
        var readDirectories: [String] = []
        var failures: [String] = []
        for directory in directories {
            if let cache = freshCache(packageDirectory: directory) {
                sources.append(CacheSource(cache: cache, mimeDirectory: mimeDirectory(of: directory)))
                readDirectories.append(directory)
            } else if let source = loadXML(directory: directory, failures: &failures) {
                sources.append(source)
                readDirectories.append(directory)
            }
        }
        guard !sources.isEmpty else {
            throw failures.isEmpty
                ? .mimeDatabaseNotFound(searched: directories) : .mimeDatabaseUnreadable(paths: failures)
        }
        return MIMEDatabase(sources: sources, directories: readDirectories)
    }

    /// The `mime` directory a `packages` directory belongs to (its parent,
    /// by name: the cache is found even when `packages` itself is missing).
    static func mimeDirectory(of packageDirectory: String) -> String {
        var components = packageDirectory.split(separator: "/", omittingEmptySubsequences: true)
        while components.last == "." { components.removeLast() }
        let absolute = packageDirectory.hasPrefix("/")
        guard components.last == "packages" else { return packageDirectory + "/.." }
        components.removeLast()
        let joined = components.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The directory's `mime.cache` when it is valid and at least as new as
    /// the `packages` directory and each XML file in it: the specification
    /// has every change to the XML followed by `update-mime-database`, and a
    /// cache older than a change would miss it, so the XML is read then.
    /// - Returns: nil when there is no such cache.
    static func freshCache(packageDirectory: String) -> MIMECacheFile? {
        let cachePath = mimeDirectory(of: packageDirectory) + "/mime.cache"
        var cacheInfo = stat()
        guard stat(cachePath, &cacheInfo) == 0 else { return nil }
        let cacheTime = cacheInfo.st_mtim
        func isNewer(_ info: stat) -> Bool {
            let time = info.st_mtim
            return time.tv_sec > cacheTime.tv_sec
                || (time.tv_sec == cacheTime.tv_sec && time.tv_nsec > cacheTime.tv_nsec)
        }
        var info = stat()
        if stat(packageDirectory, &info) == 0 {
            if isNewer(info) { return nil }
            for name in xmlFiles(in: packageDirectory) {
                if stat(packageDirectory + "/" + name, &info) == 0, isNewer(info) { return nil }
            }
        }
        return MIMECacheFile(path: cachePath)
    }

    /// The names of the `*.xml` files of a directory (not hidden), sorted; empty when it cannot be read.
    private static func xmlFiles(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".xml"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// Reads the XML files of one directory in name order, so that a later
    /// file's `<glob-deleteall/>` replaces an earlier one's globs.
    /// - Parameter failures: collects the files that do not parse.
    /// - Returns: the source, or nil when no file of it parses and defines a type.
    private static func loadXML(directory: String, failures: inout [String]) -> XMLSource? {
        var state = ParseState()
        let files = xmlFiles(in: directory)
        if !files.isEmpty, let failure = xmlLibraryFailure {
            // The directory's files are unreadable here; the message says which package to install.
            failures.append("\(directory) (\(failure))")
            return nil
        }
        for name in files {
            let path = directory + "/" + name
            if !parse(file: path, into: &state) { failures.append(path) }
        }
        guard !state.types.isEmpty else { return nil }
        let globs = state.globs.flatMap { type, globs in
            globs.map {
                GlobIndex.Glob(
                    pattern: $0.pattern, contentType: type, weight: $0.weight, caseSensitive: $0.caseSensitive)
            }
        }
        return XMLSource(
            types: state.types, aliases: state.aliases, globs: GlobIndex(globs), deletedGlobs: state.deletedGlobs)
    }

    /// The `*.ext` globs of a per-type file that `update-mime-database`
    /// writes (`<mime>/image/jpeg.xml`: a `mime-type` element holding the
    /// type's globs in the order of its XML source, the main extension first).
    /// - Returns: the extensions; empty when the file is missing or not well-formed.
    static func extensions(inTypeFile path: String) -> [String] {
        guard xmlLibraryFailure == nil else { return [] }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        guard let reader = xmlReaderForFile(path, nil, options) else { return [] }
        defer { xmlFreeTextReader(reader) }
        var extensions: [String] = []
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue),
                xmlTextReaderDepth(reader) == 1, string(xmlTextReaderConstLocalName(reader)) == "glob",
                let pattern = attribute(reader, "pattern"), let ext = simpleExtension(pattern)
            {
                extensions.append(ext)
            }
            status = xmlTextReaderRead(reader)
        }
        return status == 0 ? extensions : []
    }

    /// Why libxml2 cannot be loaded ("libxml2 could not be loaded: <reason> (install the Debian package
    /// libxml2)"), nil when it is open: asked before the first libxml2 call, so that a missing library is an
    /// unreadable database for the caller rather than the end of the process.
    static let xmlLibraryFailure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard sk_xml_library_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// `png` for `*.png`; nil for a pattern that is not `*.` and a plain extension.
    private static func simpleExtension(_ pattern: String) -> String? {
        guard pattern.hasPrefix("*."), pattern.count > 2, !pattern.dropFirst(2).contains(where: { "*?[".contains($0) })
        else { return nil }
        return String(pattern.dropFirst(2))
    }

    /// What the files said so far.
    private struct ParseState {
        var types: [String: XMLSource.TypeRecord] = [:]
        var aliases: [String: String] = [:]
        var globs: [String: [GlobIndex.Glob]] = [:]
        var deletedGlobs: Set<String> = []
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
                    if let ext = simpleExtension(pattern) { local.types[type]?.extensions.append(ext) }
                }
            case (2, "glob-deleteall"):
                if let type = currentType {
                    state.globs[type] = nil
                    state.types[type]?.extensions = []
                    local.deletedGlobs.insert(type)
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
            var merged = state.types[type] ?? XMLSource.TypeRecord()
            merged.parents += record.parents.filter { !merged.parents.contains($0) }
            merged.extensions += record.extensions.filter { !merged.extensions.contains($0) }
            state.types[type] = merged
        }
        state.aliases.merge(local.aliases) { _, new in new }
        state.deletedGlobs.formUnion(local.deletedGlobs)
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
