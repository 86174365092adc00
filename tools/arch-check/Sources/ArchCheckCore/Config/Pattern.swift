/// Wildcard matching for the names and folders a configuration writes.
///
/// A `*` matches any run of characters (none included). In folder globs it
/// stays inside one path component, and a component that is exactly `**`
/// matches any number of components (none included).
public enum Pattern {
    /// Whether `text` matches `pattern` as a whole (`*` matches any run of
    /// characters, `/` included).
    /// - Parameters:
    ///   - pattern: the pattern, e.g. `*Feature`.
    ///   - text: the name to test.
    /// - Returns: true when the whole of `text` matches.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let t = Array(text.unicodeScalars)
        var pi = 0
        var ti = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] != "*", p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Whether a folder path matches a folder glob component by component.
    /// - Parameters:
    ///   - glob: e.g. `Modules/*` or `**/Tests`.
    ///   - path: a folder path relative to the root, e.g. `Modules/Uploads`.
    /// - Returns: true when the whole path matches.
    public static func matchesPath(_ glob: String, _ path: String) -> Bool {
        matchComponents(components(glob)[...], components(path)[...])
    }

    /// The shortest leading part of `path` (a folder or file path) that
    /// matches `glob`, if any: the folder that puts `path` under the glob.
    /// - Parameters:
    ///   - glob: a folder glob.
    ///   - path: a path relative to the root.
    /// - Returns: the matching folder, e.g. `Modules/Uploads` for
    ///   `Modules/*` and `Modules/Uploads/Sources/Uploads`.
    public static func matchingFolder(_ glob: String, in path: String) -> String? {
        let parts = components(path)
        let globParts = components(glob)[...]
        guard !parts.isEmpty else { return nil }
        for length in 1...parts.count where matchComponents(globParts, parts[..<length]) {
            return parts[..<length].joined(separator: "/")
        }
        return nil
    }

    /// Path components without empty ones and without `.`.
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private static func matchComponents(_ glob: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = glob.first else { return path.isEmpty }
        if first == "**" {
            let rest = glob.dropFirst()
            var remaining = path
            while true {
                if matchComponents(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let head = path.first, matches(first, head) else { return false }
        return matchComponents(glob.dropFirst(), path.dropFirst())
    }
}
