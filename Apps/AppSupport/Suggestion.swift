public import ShareKitCore

/// The nearest of some known words to a mistyped one, for a usage error's
/// `did you mean 'send'?`.
public enum Suggestion {
    /// The known word nearest to `typed` by edit distance (insertions,
    /// deletions, substitutions and swaps of neighbours), if one is near
    /// enough to be what was meant: at most a third of the longer word's
    /// length, and never more than 3 edits.
    /// - Parameters:
    ///   - typed: what the person typed.
    ///   - candidates: the words that would have been understood.
    /// - Returns: the nearest candidate, or nil when none is close.
    public static func nearest(to typed: String, in candidates: [String]) -> String? {
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(typed, candidate)
            let allowed = min(3, max(1, max(typed.count, candidate.count) / 3))
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        if best == nil {
            // A unique word that begins with what was typed (`stat` for `status`).
            let starting = candidates.filter { typed.count >= 2 && $0.hasPrefix(typed) }
            if starting.count == 1 { return starting[0] }
        }
        return best?.word
    }

    /// `; did you mean 'WORD'?` for the nearest word in the current
    /// language, or an empty string.
    /// - Parameters:
    ///   - typed: what the person typed.
    ///   - candidates: the words that would have been understood.
    public static func didYouMean(_ typed: String, in candidates: [String]) -> String {
        didYouMean(nearest(to: typed, in: candidates), in: .current)
    }

    /// `; did you mean 'WORD'?` in a language, or an empty string without a word.
    /// - Parameters:
    ///   - word: the suggested word, if any.
    ///   - language: the language.
    public static func didYouMean(_ word: String?, in language: Language) -> String {
        word.map { AppSupportText.table.text(.didYouMean, ["word": $0], in: language) } ?? ""
    }

    /// The optimal string alignment distance between two words.
    /// - Returns: how many single-character edits make one the other.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
