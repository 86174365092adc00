import Foundation
public import ShareKitCore
public import ShareKitServerAPIInterface
public import ShareKitTargetStoreInterface
import ShareKitWireContract
import Synchronization

/// Search and resolution of targets against the server: listSpaces gives
/// the channels (a chat channel is a `channel` target, a forum channel a
/// `new_post` target), searchThreadTitles the threads, each with the
/// person's write permission as the server reports it.
///
/// Answers are kept in memory for ``cacheLifetime`` so that a picker that
/// searches as the person types does not ask the server for every key;
/// they hold names and ids only, never message content, and are never
/// written anywhere.
public final class ServerTargetDirectory: TargetDirectory {
    private let api: TargetAPI
    /// How long an answer of the server is reused; zero asks every time.
    public let cacheLifetime: Duration
    private let cache = Mutex(AnswerCache())

    /// - Parameters:
    ///   - api: the session's authorized client for the server.
    ///   - cacheLifetime: how long answers are reused (zero: not at all).
    public init(api: any AuthorizedAPIClient, cacheLifetime: Duration = .seconds(15)) {
        self.api = TargetAPI(api: api)
        self.cacheLifetime = cacheLifetime
    }

    // MARK: - Search

    /// Channels whose name (or display path) and threads whose title match
    /// `query`, ignoring case and accents: names that start with it first,
    /// then names that contain it, then channels whose path contains it;
    /// channels before threads within each group.
    /// - Parameters:
    ///   - query: what the person typed; empty lists everything.
    ///   - limit: the most candidates returned.
    ///   - includingReadOnly: also return targets the person may only read.
    /// - Returns: the candidates, best first.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
    public func search(query: String, limit: Int, includingReadOnly: Bool) async throws(TargetError)
        -> [TargetCandidate]
    {
        guard limit > 0 else { return [] }
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        let folded = TargetMatching.fold(trimmed)
        let channels = try await channelCandidates()
        let threads = try await threadCandidates(matching: trimmed)
        var ranked: [(tier: Int, group: Int, index: Int, candidate: TargetCandidate)] = []
        for (index, channel) in channels.enumerated() where includingReadOnly || channel.canWrite {
            if let tier = TargetMatching.rank(channel.channelName, query: folded) {
                ranked.append((tier, 0, index, channel))
            } else if TargetMatching.fold(channel.target.displayPath).contains(folded) {
                ranked.append((2, 0, index, channel))
            }
        }
        for (index, thread) in threads.enumerated() where includingReadOnly || thread.canWrite {
            // The server matched the title; its folding may differ a little from ours.
            let tier = TargetMatching.rank(thread.threadTitle ?? "", query: folded) ?? 1
            ranked.append((tier, 1, index, thread))
        }
        ranked.sort { ($0.tier, $0.group, $0.index) < ($1.tier, $1.group, $1.index) }
        return ranked.prefix(limit).map(\.candidate)
    }

    // MARK: - Resolution

    /// Resolves `thread:ID`, `channel:ID`, `new-post:ID` or a display path to
    /// a target the person may write to, with the server's names.
    /// - Parameter text: the reference or display path.
    /// - Returns: the target.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError``: not found (with
    ///   suggestions), ambiguous, not writable, an invalid reference, or unavailable.
    public func resolve(_ text: String) async throws(TargetError) -> ShareTarget {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let reference: ShareTarget?
        do {
            reference = try ShareTarget.parseReference(trimmed)
        } catch {
            throw .invalidReference(trimmed, reason: "it needs an id after the colon, without spaces")
        }
        if let reference { return try await resolve(reference: reference, text: trimmed) }
        return try await resolve(path: trimmed)
    }

    private func resolve(reference: ShareTarget, text: String) async throws(TargetError) -> ShareTarget {
        if reference.kind == .thread { return try await resolve(threadID: reference.id, text: text) }
        guard let (space, channel) = try await channel(id: reference.id) else {
            throw .notFound(text, suggestions: [])
        }
        let name = "\(channel.name) in \(space.name)"
        switch (reference.kind, channel.kind == "forum") {
        case (.channel, true):
            throw .invalidReference(
                text,
                reason:
                    "\(name) is a forum channel; start a new post with new-post:\(channel.id) or name one of its threads"
            )
        case (.newPost, false):
            throw .invalidReference(
                text,
                reason: "\(name) is a chat channel; new posts are made in forum channels, use channel:\(channel.id)")
        default:
            return try choose([Self.candidate(space, channel)], text: text)
        }
    }

    /// A thread is looked up in the listing of every thread the person can
    /// see (searchThreadTitles with an empty query, as many as the server
    /// gives); one beyond it is confirmed through its messages.
    private func resolve(threadID: String, text: String) async throws(TargetError) -> ShareTarget {
        let listed = try await threadCandidates(matching: "")
        if let found = listed.first(where: { $0.target.id == threadID }) { return try choose([found], text: text) }
        let probe = try await api.probeThread(threadID)
        guard probe.exists else { throw .notFound(text, suggestions: []) }
        let title = "thread \(threadID)"
        guard let channelID = probe.channelID, let (space, channel) = try await channel(id: channelID) else {
            // The server shows it but says nothing of its place; it decides on send.
            return ShareTarget(kind: .thread, id: threadID, displayPath: title)
        }
        let candidate = TargetCandidate(
            kind: .thread, id: threadID, canWrite: channel.canWrite, spaceName: space.name, channelID: channel.id,
            channelName: channel.name, threadTitle: title)
        return try choose([candidate], text: text)
    }

    private func resolve(path text: String) async throws(TargetError) -> ShareTarget {
        let parts = TargetMatching.components(ofPath: text)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else {
            // Not a path: offer what a search for the words finds.
            let found = text.isEmpty ? [] : try await search(query: text, limit: 5, includingReadOnly: false)
            throw .notFound(text, suggestions: found)
        }
        let path = parts.joined(separator: TargetCandidate.separator)
        var pool = try await channelCandidates()
        if parts.count == 3 { pool += try await threadCandidates(matching: parts[2]) }
        let matches = TargetMatching.exactMatches(path, in: pool)
        guard matches.isEmpty else { return try choose(matches, text: text) }
        if parts.count == 3, let word = Self.longestWord(of: parts[2]) {
            // The title was misspelt or shortened: its longest word finds the threads it may mean.
            pool += try await threadCandidates(matching: word)
        }
        throw .notFound(text, suggestions: TargetMatching.suggestions(for: path, in: pool))
    }

    /// The writable match when there is exactly one; several writable ones
    /// are ambiguous, read-only ones are refused.
    private func choose(_ matches: [TargetCandidate], text: String) throws(TargetError) -> ShareTarget {
        let writable = matches.filter(\.canWrite)
        if writable.count == 1 { return writable[0].target }
        if writable.count > 1 { throw .ambiguous(text, candidates: writable) }
        throw .notWritable(matches[0].target)
    }

    private static func longestWord(of text: String) -> String? {
        let words = text.split { (c: Character) in c.isWhitespace || c.isPunctuation }
        return words.max { $0.count < $1.count }.map(String.init)
    }

    // MARK: - Answers

    private static func candidate(_ space: SpaceAnswer, _ channel: SpaceAnswer.Channel) -> TargetCandidate {
        TargetCandidate(
            kind: channel.kind == "forum" ? .newPost : .channel, id: channel.id, canWrite: channel.canWrite,
            spaceName: space.name, channelID: channel.id, channelName: channel.name)
    }

    /// Every channel the person can read, as the target a share to it makes.
    private func channelCandidates() async throws(TargetError) -> [TargetCandidate] {
        try await spaces().flatMap { space in space.channels.map { Self.candidate(space, $0) } }
    }

    private func channel(id: String) async throws(TargetError) -> (SpaceAnswer, SpaceAnswer.Channel)? {
        for space in try await spaces() {
            if let channel = space.channels.first(where: { $0.id == id }) { return (space, channel) }
        }
        return nil
    }

    private func threadCandidates(matching query: String) async throws(TargetError) -> [TargetCandidate] {
        let now = ContinuousClock.now
        let hits: [ThreadHitAnswer]
        if let cached = cache.withLock({ $0.threads(query, at: now) }) {
            hits = cached
        } else {
            hits = try await api.searchThreads(query, limit: TargetAPI.maximumSearchLimit)
            cache.withLock { $0.keep(hits, for: query, until: now.advanced(by: cacheLifetime)) }
        }
        return hits.map {
            TargetCandidate(
                kind: .thread, id: $0.id, canWrite: $0.canWrite, spaceName: $0.spaceName, channelID: $0.channelID,
                channelName: $0.channelName, threadTitle: $0.title)
        }
    }

    private func spaces() async throws(TargetError) -> [SpaceAnswer] {
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0.spaces(at: now) }) { return cached }
        let spaces = try await api.spaces()
        cache.withLock { $0.keep(spaces, until: now.advanced(by: cacheLifetime)) }
        return spaces
    }
}

/// The server's recent answers and until when each may be reused.
struct AnswerCache {
    /// The most thread searches kept; the oldest goes first.
    static let maximumSearches = 32

    private var spaces: (until: ContinuousClock.Instant, value: [SpaceAnswer])?
    private var searches: [String: (until: ContinuousClock.Instant, value: [ThreadHitAnswer])] = [:]

    func spaces(at now: ContinuousClock.Instant) -> [SpaceAnswer]? {
        guard let spaces, now < spaces.until else { return nil }
        return spaces.value
    }

    func threads(_ query: String, at now: ContinuousClock.Instant) -> [ThreadHitAnswer]? {
        guard let entry = searches[query], now < entry.until else { return nil }
        return entry.value
    }

    mutating func keep(_ value: [SpaceAnswer], until: ContinuousClock.Instant) {
        spaces = (until, value)
    }

    mutating func keep(_ value: [ThreadHitAnswer], for query: String, until: ContinuousClock.Instant) {
        if searches.count >= Self.maximumSearches, let oldest = searches.min(by: { $0.value.until < $1.value.until }) {
            searches[oldest.key] = nil
        }
        searches[query] = (until, value)
    }
}
