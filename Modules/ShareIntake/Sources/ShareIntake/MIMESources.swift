import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory of the database read from its XML sources (`packages/*.xml`).
struct XMLSource: MIMESource {
    /// What the database says about one canonical type.
    struct TypeRecord: Sendable {
        /// Direct `sub-class-of` parents, as written (resolved on use, since
        /// a parent may be named by an alias).
        var parents: [String] = []
        /// `*.ext` globs in file order, for naming a file that has no name.
        var extensions: [String] = []
    }

    /// Canonical type -> record.
    let types: [String: TypeRecord]
    /// Alias -> canonical type.
    let aliases: [String: String]
    /// Every glob, for matching file names.
    let globs: GlobIndex
    /// The types with a `<glob-deleteall/>`.
    let deletedGlobs: Set<String>

    func aliasTarget(_ alias: String) -> String? { aliases[alias] }
    func parents(of type: String) -> [String] { types[type]?.parents ?? [] }
    func knows(_ type: String) -> Bool { types[type] != nil }
    func globMatches(name: String, lowered: String) -> [GlobIndex.Match] {
        globs.matches(name: name, lowered: lowered)
    }
    func deletesGlobs(of type: String) -> Bool { deletedGlobs.contains(type) }
    func extensions(of type: String) -> [String] { types[type]?.extensions ?? [] }
}

/// A directory of the database read from its `mime.cache`, without
/// parsing: names are matched against the file's lists and suffix tree as
/// they are. The alias and parent lists become dictionaries on the first
/// question about them (a few hundred entries each), so a process that
/// never asks about a type (a text share) reads nothing but the file.
final class CacheSource: MIMESource {
    private let cache: MIMECacheFile
    /// The `mime` directory, for the per-type files `update-mime-database`
    /// writes beside the cache (`<mime>/image/png.xml`).
    private let mimeDirectory: String
    private let tables = Mutex<Tables?>(nil)

    /// The alias and parent lists, lowercased.
    private struct Tables {
        var aliases: [String: String] = [:]
        var parents: [String: [String]] = [:]
    }

    init(cache: MIMECacheFile, mimeDirectory: String) {
        self.cache = cache
        self.mimeDirectory = mimeDirectory
    }

    private func withTables<T>(_ body: (Tables) -> T) -> T {
        tables.withLock { slot in
            if slot == nil {
                var made = Tables()
                for (alias, type) in cache.aliases() {
                    made.aliases[MIMEDatabase.bare(alias)] = MIMEDatabase.bare(type)
                }
                for (type, parents) in cache.parents() {
                    made.parents[MIMEDatabase.bare(type), default: []] += parents.map(MIMEDatabase.bare)
                }
                slot = made
            }
            return body(slot!)
        }
    }

    func aliasTarget(_ alias: String) -> String? { withTables { $0.aliases[alias] } }

    func parents(of type: String) -> [String] { withTables { $0.parents[type] ?? [] } }

    /// Whether `update-mime-database` wrote the type's own file
    /// (`<mime>/<media>/<subtype>.xml`, one per type it knows), or the
    /// cache names the type with parents or as an alias's target.
    func knows(_ type: String) -> Bool {
        if let path = typeFile(type) {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return true }
        }
        return withTables { $0.parents[type] != nil || $0.aliases.values.contains(type) }
    }

    func globMatches(name: String, lowered: String) -> [GlobIndex.Match] {
        cache.globMatches(name: name, lowered: lowered).map { match in
            var lowercased = match
            lowercased.glob.contentType = MIMEDatabase.bare(match.glob.contentType)
            return lowercased
        }
    }

    func deletesGlobs(of type: String) -> Bool { cache.deletesGlobs(of: type) }

    /// The main extension first, as the type's own file lists its globs
    /// (the cache does not keep their order); the cache's extensions when
    /// that file is missing or names none.
    func extensions(of type: String) -> [String] {
        if let path = typeFile(type) {
            let ordered = MIMEDatabaseLoader.extensions(inTypeFile: path)
            if !ordered.isEmpty { return ordered }
        }
        return cache.extensions(of: type)
    }

    /// `<mime>/<media>/<subtype>.xml` for a well-formed type name (no
    /// path separators beyond the one slash, no leading dot); nil otherwise.
    private func typeFile(_ type: String) -> String? {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") })
        else { return nil }
        return mimeDirectory + "/" + type + ".xml"
    }
}
