public import ShareKitCore

/// The targets a person can see on their server: search for the picker and
/// `share targets --search`, and resolution of the `--to` argument of
/// `share send`.
///
/// Implementations ask the server (listSpaces and searchThreadTitles) and
/// never decide permissions beyond what the server reports: a target the
/// server says is read only is left out of search and refused by resolution.
public protocol TargetDirectory: Sendable {
    /// Finds targets whose name matches `query`: thread titles through
    /// searchThreadTitles and the channels of listSpaces by name (a chat
    /// channel as a ``ShareKitCore/ShareTarget/Kind/channel`` target, a forum
    /// channel as a ``ShareKitCore/ShareTarget/Kind/newPost`` target). Matching
    /// ignores case and accents; names that start with the query come before
    /// names that contain it.
    /// - Parameters:
    ///   - query: what the person typed; empty lists everything.
    ///   - limit: the most candidates returned.
    ///   - includingReadOnly: also return targets the person may only read.
    /// - Returns: the candidates, best first.
    /// - Throws: ``TargetError/unavailable(reason:retryable:)`` when the server
    ///   or the session cannot answer.
    func search(query: String, limit: Int, includingReadOnly: Bool) async throws(TargetError) -> [TargetCandidate]

    /// Turns what a person typed into a target they may write to, checked
    /// against the server so that its display path is real.
    ///
    /// Accepts `thread:ID`, `channel:ID` (a chat channel), `new-post:ID` (a
    /// forum channel) and display paths (`space > channel`,
    /// `space > channel > thread title`, `space > channel > new post`),
    /// matched exactly, first with case, then without.
    /// - Parameter text: the reference or display path.
    /// - Returns: the target, with the display path the server's names give.
    /// - Throws: ``TargetError/notFound(_:suggestions:)`` (with close
    ///   candidates), ``TargetError/ambiguous(_:candidates:)``,
    ///   ``TargetError/notWritable(_:)``,
    ///   ``TargetError/invalidReference(_:reason:)``, or
    ///   ``TargetError/unavailable(reason:retryable:)``.
    func resolve(_ text: String) async throws(TargetError) -> ShareTarget
}

extension TargetDirectory {
    /// Finds writable targets whose name matches `query`; see
    /// ``search(query:limit:includingReadOnly:)``.
    /// - Parameters:
    ///   - query: what the person typed.
    ///   - limit: the most candidates returned.
    /// - Returns: the candidates, best first.
    /// - Throws: ``TargetError/unavailable(reason:retryable:)``.
    public func search(query: String, limit: Int) async throws(TargetError) -> [TargetCandidate] {
        try await search(query: query, limit: limit, includingReadOnly: false)
    }
}
