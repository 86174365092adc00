import Foundation
public import ShareKitCore
public import ShareKitTargetStoreInterface
import Synchronization

/// The test double of ``ShareKitTargetStoreInterface/TargetDirectory``: a fixed
/// list of candidates instead of a server, searched and resolved by the
/// protocol's rules, and every call recorded.
///
/// Search matches the candidates' display paths, ignoring case and accents;
/// names that start with the query come before names that contain it, and
/// read-only candidates only when asked for. Resolution accepts
/// `thread:ID`, `channel:ID`, `new-post:ID` and exact display paths (with
/// case first, then without); anything else is ``ShareKitTargetStoreInterface/TargetError/notFound(_:suggestions:)``
/// with the candidates a search for it finds. To make the directory fail
/// as a server that cannot answer, script the next calls:
///
/// ```swift
/// let directory = FixedTargetDirectory([candidate])
/// directory.fail(with: .unavailable(reason: "the server could not be reached", retryable: true))
/// ```
public final class FixedTargetDirectory: TargetDirectory {
    /// One call as it was made.
    public enum Call: Hashable, Sendable {
        /// ``FixedTargetDirectory/search(query:limit:includingReadOnly:)``.
        case search(query: String, limit: Int, includingReadOnly: Bool)
        /// ``FixedTargetDirectory/resolve(_:)``.
        case resolve(String)
    }

    private struct State {
        var candidates: [TargetCandidate]
        var failures: [TargetError] = []
        var calls: [Call] = []
    }

    private let state: Mutex<State>

    /// Makes a directory of these candidates.
    /// - Parameter candidates: what the server would list, in its order.
    public init(_ candidates: [TargetCandidate]) {
        state = Mutex(State(candidates: candidates))
    }

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Replaces the candidates (the person was given access to a new channel).
    /// - Parameter candidates: the new list.
    public func setCandidates(_ candidates: [TargetCandidate]) {
        state.withLock { $0.candidates = candidates }
    }

    /// Makes the next call (search or resolve) throw `error`; calls queue up, one error each.
    /// - Parameter error: what it throws.
    public func fail(with error: TargetError) {
        state.withLock { $0.failures.append(error) }
    }

    private func begin(_ call: Call) throws(TargetError) -> [TargetCandidate] {
        let (candidates, failure) = state.withLock { state -> ([TargetCandidate], TargetError?) in
            state.calls.append(call)
            return (state.candidates, state.failures.isEmpty ? nil : state.failures.removeFirst())
        }
        if let failure { throw failure }
        return candidates
    }

    /// Finds candidates whose display path matches `query`, best first.
    /// - Parameters:
    ///   - query: what the person typed; empty lists everything.
    ///   - limit: the most candidates returned.
    ///   - includingReadOnly: also return read-only candidates.
    /// - Returns: the candidates.
    /// - Throws: a scripted failure.
    public func search(query: String, limit: Int, includingReadOnly: Bool) async throws(TargetError)
        -> [TargetCandidate]
    {
        let candidates = try begin(.search(query: query, limit: limit, includingReadOnly: includingReadOnly))
        return Self.matches(query, in: candidates, limit: limit, includingReadOnly: includingReadOnly)
    }

    /// Resolves a reference or an exact display path to a writable target.
    /// - Parameter text: what the person typed.
    /// - Returns: the target.
    /// - Throws: `notFound`, `ambiguous`, `notWritable`, `invalidReference`, or a scripted failure.
    public func resolve(_ text: String) async throws(TargetError) -> ShareTarget {
        let candidates = try begin(.resolve(text))
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let reference: ShareTarget?
        do {
            reference = try ShareTarget.parseReference(trimmed)
        } catch {
            throw .invalidReference(trimmed, reason: "it needs an id after the colon, without spaces")
        }
        var found: [TargetCandidate]
        if let reference {
            found = candidates.filter { $0.kind == reference.kind && $0.target.id == reference.id }
        } else {
            found = candidates.filter { $0.target.displayPath == trimmed }
            if found.isEmpty {
                found = candidates.filter { Self.fold($0.target.displayPath) == Self.fold(trimmed) }
            }
        }
        let writable = found.filter(\.canWrite)
        if writable.count == 1 { return writable[0].target }
        if writable.count > 1 { throw .ambiguous(trimmed, candidates: writable) }
        if let first = found.first { throw .notWritable(first.target) }
        throw .notFound(trimmed, suggestions: Self.matches(trimmed, in: candidates, limit: 5, includingReadOnly: false))
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func matches(
        _ query: String, in candidates: [TargetCandidate], limit: Int, includingReadOnly: Bool
    ) -> [TargetCandidate] {
        guard limit > 0 else { return [] }
        let folded = fold(query.trimmingCharacters(in: .whitespaces))
        var ranked: [(tier: Int, index: Int, candidate: TargetCandidate)] = []
        for (index, candidate) in candidates.enumerated() where includingReadOnly || candidate.canWrite {
            let name = fold(candidate.threadTitle ?? candidate.channelName)
            if folded.isEmpty || name.hasPrefix(folded) {
                ranked.append((0, index, candidate))
            } else if fold(candidate.target.displayPath).contains(folded) {
                ranked.append((1, index, candidate))
            }
        }
        return ranked.sorted { ($0.tier, $0.index) < ($1.tier, $1.index) }.prefix(limit).map(\.candidate)
    }
}
