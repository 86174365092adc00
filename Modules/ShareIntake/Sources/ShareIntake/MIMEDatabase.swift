/// The parsed shared MIME database: immutable after loading, so one copy
/// serves every thread of the process.
final class MIMEDatabase: Sendable {
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
    /// The `packages` directories that were read, in search order.
    let directories: [String]

    init(types: [String: TypeRecord], aliases: [String: String], globs: GlobIndex, directories: [String]) {
        self.types = types
        self.aliases = aliases
        self.globs = globs
        self.directories = directories
    }

    /// The canonical, lowercase name without parameters.
    func canonical(_ contentType: String) -> String {
        let bare = Self.bare(contentType)
        return aliases[bare] ?? bare
    }

    /// Lowercase and without parameters (`Text/Plain; charset=utf-8` -> `text/plain`).
    static func bare(_ contentType: String) -> String {
        let withoutParameters = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return withoutParameters.trimmingSpaces().lowercased()
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
            var parents = (types[current]?.parents ?? []).map(canonical)
            if current.hasPrefix("text/") && current != "text/plain" { parents.append("text/plain") }
            for parent in parents where parent != Self.octetStream && seen.insert(parent).inserted {
                order.append(parent)
            }
        }
        if !start.hasPrefix("inode/") && seen.insert(Self.octetStream).inserted { order.append(Self.octetStream) }
        return order
    }

    /// Every type conforms to it, except `inode/*`.
    static let octetStream = "application/octet-stream"
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
