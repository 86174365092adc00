/// The shared MIME database of a list of directories: immutable after
/// loading, so one copy serves every thread of the process.
///
/// Each `mime` directory (`~/.local/share/mime`, `/usr/share/mime`, …) is
/// one ``MIMESource``: its binary `mime.cache` when that is valid and not
/// older than its XML sources, else the XML sources themselves. The
/// directories combine as the specification says: a more important
/// directory's alias wins, parents add up, and a `<glob-deleteall/>`
/// removes the globs less important directories gave the type.
final class MIMEDatabase: Sendable {
    /// The sources, most important first.
    let sources: [any MIMESource]
    /// The `packages` directories that were read, in search order.
    let directories: [String]

    init(sources: [any MIMESource], directories: [String]) {
        self.sources = sources
        self.directories = directories
    }

    /// The canonical, lowercase name without parameters.
    func canonical(_ contentType: String) -> String {
        let bare = Self.bare(contentType)
        for source in sources {
            if let type = source.aliasTarget(bare) { return type }
        }
        return bare
    }

    /// Lowercase and without parameters (`Text/Plain; charset=utf-8` -> `text/plain`).
    /// Cut at the first `;` scalar, as share-server cuts a type: a `;`
    /// followed by a combining mark or an emoji modifier is one Character,
    /// so a cut by Character would keep the parameters (a hostile server's
    /// `accepted_content_types` can hold such a type).
    static func bare(_ contentType: String) -> String {
        let scalars = contentType.unicodeScalars
        let end = scalars.firstIndex(of: ";") ?? scalars.endIndex
        return String(scalars[..<end]).trimmingSpaces().lowercased()
    }

    /// Whether any directory defines the canonical type.
    func isKnown(_ canonicalType: String) -> Bool {
        sources.contains { $0.knows(canonicalType) }
    }

    /// The direct `sub-class-of` parents of a canonical type, as written
    /// (an alias is resolved on use), less important directories' first.
    func parents(of canonicalType: String) -> [String] {
        var parents: [String] = []
        for source in sources.reversed() {
            for parent in source.parents(of: canonicalType) where !parents.contains(parent) { parents.append(parent) }
        }
        return parents
    }

    /// The type and everything it conforms to, nearest first (breadth
    /// first): explicit `sub-class-of` parents, then the implicit
    /// `text/plain` of every `text/*` type, and `application/octet-stream`
    /// last for everything but `inode/*`.
    func supertypes(of contentType: String) -> [String] {
        let start = canonical(contentType)
        guard !start.isEmpty else { return [] }
        var order = [start]
        var seen: Set<String> = [start]
        var next = 0
        while next < order.count {
            let current = order[next]
            next += 1
            var parents = parents(of: current).map(canonical)
            if current.hasPrefix("text/") && current != "text/plain" { parents.append("text/plain") }
            for parent in parents where parent != Self.octetStream && seen.insert(parent).inserted {
                order.append(parent)
            }
        }
        if !start.hasPrefix("inode/") && seen.insert(Self.octetStream).inserted { order.append(Self.octetStream) }
        return order
    }

    /// The types a file name suggests, best first (as written, not yet canonical).
    func contentTypes(forFileName fileName: String) -> [String] {
        let name = fileName.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty else { return [] }
        let lowered = name.lowercased()
        var matches: [GlobIndex.Match] = []
        for (index, source) in sources.enumerated() {
            let more = sources[..<index]
            matches += source.globMatches(name: name, lowered: lowered).filter { match in
                !more.contains { $0.deletesGlobs(of: match.glob.contentType) }
            }
        }
        return GlobIndex.ordered(matches)
    }

    /// The first `*.ext` glob of a canonical type (its main extension),
    /// the least important directory's first, unless a more important one
    /// deleted that directory's globs.
    func preferredExtension(for canonicalType: String) -> String? {
        var extensions: [String] = []
        for source in sources.reversed() {
            if source.deletesGlobs(of: canonicalType) { extensions = [] }
            extensions += source.extensions(of: canonicalType)
        }
        return extensions.first
    }

    /// Every type conforms to it, except `inode/*`.
    static let octetStream = "application/octet-stream"
}

/// What one directory of the database says; every type it takes and
/// returns is lowercase and without parameters.
protocol MIMESource: Sendable {
    /// The canonical type `alias` names, or nil when it is no alias here.
    func aliasTarget(_ alias: String) -> String?
    /// The direct `sub-class-of` parents of a type.
    func parents(of type: String) -> [String]
    /// Whether the directory defines the type.
    func knows(_ type: String) -> Bool
    /// The globs matching a file name (`lowered` is the name lowercased), unordered.
    func globMatches(name: String, lowered: String) -> [GlobIndex.Match]
    /// Whether the directory discards less important directories' globs of the type.
    func deletesGlobs(of type: String) -> Bool
    /// The type's `*.ext` globs, main extension first.
    func extensions(of type: String) -> [String]
}

extension String {
    /// Without leading and trailing spaces and tabs (Foundation-free).
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
