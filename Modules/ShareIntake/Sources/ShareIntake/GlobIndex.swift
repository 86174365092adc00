#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The globs of the shared MIME database, indexed so that a file name is
/// matched with a few dictionary look-ups: literal names and `*.suffix`
/// patterns by key, only the few other patterns through `fnmatch`.
struct GlobIndex: Sendable {
    /// One `<glob>` of one type.
    struct Glob: Sendable, Hashable {
        /// The pattern as written.
        var pattern: String
        /// The type it names.
        var contentType: String
        /// `weight`, 50 when absent (the specification's default).
        var weight: Int
        /// `case-sensitive="true"`; otherwise the name is compared lowercased.
        var caseSensitive: Bool
    }

    private var literal: [String: [Glob]] = [:]
    private var suffix: [String: [Glob]] = [:]
    private var other: [Glob] = []

    init(_ globs: [Glob]) {
        for glob in globs {
            let key = glob.caseSensitive ? glob.pattern : glob.pattern.lowercased()
            if !Self.hasWildcard(key) {
                literal[key, default: []].append(glob)
            } else if key.hasPrefix("*"), !Self.hasWildcard(String(key.dropFirst())), key.count > 1 {
                suffix[String(key.dropFirst()), default: []].append(glob)
            } else {
                other.append(glob)
            }
        }
    }

    /// A glob that matched a file name.
    struct Match: Sendable {
        /// The glob.
        var glob: Glob
        /// Whether it is a literal name rather than a pattern.
        var isLiteral: Bool
    }

    /// The globs matching a file name, unordered (``ordered(_:)`` ranks them).
    /// - Parameters:
    ///   - name: the file name (no directory).
    ///   - lowered: `name` lowercased.
    func matches(name: String, lowered: String) -> [Match] {
        var found: [Match] = []
        for glob in literal[name] ?? [] where glob.caseSensitive { found.append(.init(glob: glob, isLiteral: true)) }
        for glob in literal[lowered] ?? [] where !glob.caseSensitive {
            found.append(.init(glob: glob, isLiteral: true))
        }
        // Every suffix of the name is a candidate key of a `*.suffix` glob.
        var index = name.startIndex
        while index < name.endIndex {
            let tail = String(name[index...])
            for glob in suffix[tail] ?? [] where glob.caseSensitive {
                found.append(.init(glob: glob, isLiteral: false))
            }
            for glob in suffix[tail.lowercased()] ?? [] where !glob.caseSensitive {
                found.append(.init(glob: glob, isLiteral: false))
            }
            index = name.index(after: index)
        }
        for glob in other {
            let subject = glob.caseSensitive ? name : lowered
            let pattern = glob.caseSensitive ? glob.pattern : glob.pattern.lowercased()
            if fnmatch(pattern, subject, 0) == 0 { found.append(.init(glob: glob, isLiteral: false)) }
        }
        return found
    }

    /// The matches' types, best first: a literal name before any pattern,
    /// then higher weight, then a case-sensitive match, then the longer
    /// pattern (`*.tar.gz` before `*.gz`), then the type's name (so that the
    /// order never depends on where the globs were read from); each type once.
    static func ordered(_ matches: [Match]) -> [String] {
        let sorted = matches.sorted { a, b in
            if a.isLiteral != b.isLiteral { return a.isLiteral }
            if a.glob.weight != b.glob.weight { return a.glob.weight > b.glob.weight }
            if a.glob.caseSensitive != b.glob.caseSensitive { return a.glob.caseSensitive }
            let (lengthA, lengthB) = (a.glob.pattern.unicodeScalars.count, b.glob.pattern.unicodeScalars.count)
            if lengthA != lengthB { return lengthA > lengthB }
            return a.glob.contentType < b.glob.contentType
        }
        var seen: Set<String> = []
        return sorted.map(\.glob.contentType).filter { seen.insert($0).inserted }
    }

    private static func hasWildcard(_ pattern: String) -> Bool {
        pattern.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }
}
