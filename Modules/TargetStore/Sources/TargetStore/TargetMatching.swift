import Foundation
import ShareKitCore
import ShareKitTargetStoreInterface

/// How names are compared: search ignores case and accents, resolution
/// compares exactly first, then without case; suggestions rank by edit
/// distance on the folded text.
enum TargetMatching {
    /// Lowercased and without accents, so `Résumé` matches `resume`.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A display path as typed, with the space around each `>` made even:
    /// `server>Gateway` becomes `server > Gateway`. The thread title (the
    /// third part) is kept whole, so a title with `>` in it still matches.
    static func components(ofPath text: String) -> [String] {
        text.split(separator: ">", maxSplits: 2, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// 0 when `name` starts with `query`, 1 when it contains it, nil when it does not match (folded).
    static func rank(_ name: String, query: String) -> Int? {
        let folded = fold(name)
        if folded.hasPrefix(query) { return 0 }
        if folded.contains(query) { return 1 }
        return nil
    }

    /// The candidates whose display path is `path`: with case when any is,
    /// else without case.
    static func exactMatches(_ path: String, in pool: [TargetCandidate]) -> [TargetCandidate] {
        let exact = pool.filter { $0.target.displayPath == path }
        if !exact.isEmpty { return exact }
        let lowered = path.lowercased()
        return pool.filter { $0.target.displayPath.lowercased() == lowered }
    }

    /// Up to `limit` writable candidates close to `text`: those whose path
    /// starts with it or contains it, and those within a few edits of it,
    /// closest first.
    static func suggestions(for text: String, in pool: [TargetCandidate], limit: Int = 5) -> [TargetCandidate] {
        let wanted = fold(text)
        let threshold = max(2, wanted.count / 3)
        var seen = Set<ShareTarget>()
        let scored = pool.filter(\.canWrite).compactMap { candidate -> (Int, TargetCandidate)? in
            guard seen.insert(candidate.target).inserted else { return nil }
            let path = fold(candidate.target.displayPath)
            if path.hasPrefix(wanted) || path.contains(wanted) { return (0, candidate) }
            let distance = editDistance(Array(path), Array(wanted))
            return distance <= threshold ? (distance, candidate) : nil
        }
        return
            scored
            .sorted { ($0.0, $0.1.target.displayPath) < ($1.0, $1.1.target.displayPath) }
            .prefix(limit).map(\.1)
    }

    /// Levenshtein distance between two strings of characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
