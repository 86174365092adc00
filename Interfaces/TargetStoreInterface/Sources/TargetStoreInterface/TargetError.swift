public import ShareKitCore

/// Why a target could not be found, chosen, searched or remembered.
///
/// The cases say what a caller does next: ``notFound(_:suggestions:)`` and
/// ``ambiguous(_:candidates:)`` show the candidates and ask again;
/// ``notWritable(_:)`` and ``invalidReference(_:reason:)`` show the reason;
/// ``unavailable(reason:retryable:)`` means the server or the session could
/// not answer, and ``isRetryable`` says whether later may work (a share may
/// then wait in the inbox). Descriptions name targets and servers' problem
/// codes, never tokens.
public enum TargetError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedDescription {
    /// Nothing the person can see matches `text`; `suggestions` are close
    /// writable targets, best first (possibly none).
    case notFound(String, suggestions: [TargetCandidate])
    /// Several targets match `text` equally well; the person must choose.
    case ambiguous(String, candidates: [TargetCandidate])
    /// The target exists, but the person may not write there.
    case notWritable(ShareTarget)
    /// `text` is a reference (`thread:ID`, `channel:ID`, `new-post:ID`) that
    /// cannot name a target, for the reason given (an empty id, a chat
    /// channel named as a new post, a forum channel named as a channel).
    case invalidReference(String, reason: String)
    /// The server, the network, the session or the shared state could not
    /// answer. `retryable` is true when trying again later, unchanged, may
    /// work (no network, a timeout, `5xx`, `429`, a refresh that failed for a
    /// passing reason); false when something must change first (signed out,
    /// a refusal, unreadable storage).
    case unavailable(reason: String, retryable: Bool)

    /// Whether trying again later, unchanged, may succeed.
    public var isRetryable: Bool {
        if case .unavailable(_, let retryable) = self { return retryable }
        return false
    }

    /// A message for a person, with the candidates on lines of their own,
    /// in English (logs, `--json`); a terminal shows ``localizedText``.
    public var description: String { localizedText.english }

    /// The message in every language (the table ``TargetText``). Target
    /// names and the reasons inside are shown as they are. The candidates
    /// of ``notFound(_:suggestions:)`` and ``ambiguous(_:candidates:)`` are
    /// lines of their own; what was typed and each candidate is neutralised
    /// (``TerminalText``) first, so the only line breaks are those between
    /// candidates, and a terminal may show the message line by line.
    public var localizedText: LocalizedText {
        let table = TargetText.table
        let safe = TerminalText.neutralised
        switch self {
        case .notFound(let text, let suggestions):
            guard !suggestions.isEmpty else { return table.localized(.notFound, ["text": safe(text)]) }
            return table.localized(
                .notFoundSuggestions, ["text": safe(text), "candidates": Self.lines(suggestions)])
        case .ambiguous(let text, let candidates):
            return table.localized(.ambiguous, ["text": safe(text), "candidates": Self.lines(candidates)])
        case .notWritable(let target):
            return table.localized(.notWritable, ["path": safe(target.displayPath)])
        case .invalidReference(let text, let reason):
            return table.localized(.invalidReference, ["text": safe(text), "reason": safe(reason)])
        case .unavailable(let reason, true):
            return table.localized(.unavailableRetryable, ["reason": safe(reason)])
        case .unavailable(let reason, false):
            return table.localized(.unavailable, ["reason": safe(reason)])
        }
    }

    private static func lines(_ candidates: [TargetCandidate]) -> String {
        candidates.map { "\n  " + TerminalText.neutralised($0.target.displayPath) }.joined()
    }
}
