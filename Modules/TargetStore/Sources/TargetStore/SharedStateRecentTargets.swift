import Foundation
public import ShareKitCore
public import ShareKitSharedStateInterface
public import ShareKitTargetStoreInterface

/// The recent targets of one account on one server, kept in the app
/// group's shared state under that account's `targets.recent`
/// (``ShareKitSharedStateInterface/SharedStateKey/recentTargets`` scoped to an
/// ``ShareKitSharedStateInterface/AccountScope``) as a JSON array of `{kind, id,
/// display_path}`: kinds, ids and display paths only, never message content.
/// A target names a thread or channel of its own server only, so the lists
/// of two accounts never mix: a picker offers what the account it sends
/// with can reach.
///
/// Every change is one ``ShareKitSharedStateInterface/SharedStateStore/update(_:_:)``,
/// a read-modify-write no other writer, in this process or another, can
/// interleave with, so the CLI and the daemon recording at the same time
/// both land. At most `client.share.recent_targets` targets are kept (the
/// account's value as the server told it, else the default given).
/// A stored list that cannot be read is reset and reported as
/// ``ShareKitTargetStoreInterface/RecentTargets/warning``, never a crash.
public struct SharedStateRecentTargets: RecentTargetsStoring {
    private let state: any SharedStateStore
    private let defaultLimit: Int
    /// The account's list.
    private let key: SharedStateKey
    /// The account's `client.share.recent_targets`.
    private let limitKey: SharedStateKey

    /// The largest limit honoured, whatever the shared state says: the list
    /// must stay a small value of the state.
    public static let maximumLimit = 100

    /// - Parameters:
    ///   - state: the app group's shared state.
    ///   - account: whose recent targets (a server and a username).
    ///   - defaultLimit: how many targets to keep when the shared state has no
    ///     usable `client.share.recent_targets` for the account.
    public init(state: any SharedStateStore, account: AccountScope, defaultLimit: Int = 8) {
        self.state = state
        self.defaultLimit = defaultLimit
        key = SharedStateKey.recentTargets.scoped(to: account)
        limitKey = SharedStateKey.recentTargetsLimit.scoped(to: account)
    }

    /// How many targets are kept: the account's `client.share.recent_targets`
    /// from the shared state when it is a number from 1 up, else the default,
    /// at most ``maximumLimit``.
    public var limit: Int {
        let stored = (try? state.value(for: limitKey)).flatMap { $0.flatMap { Int($0) } }
        let chosen = stored.flatMap { $0 >= 1 ? $0 : nil } ?? defaultLimit
        return min(max(chosen, 1), Self.maximumLimit)
    }

    /// The recent targets, newest first, at most ``limit``; a corrupt stored
    /// list is reset (in the shared state too) and reported as a warning.
    /// - Returns: the list.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``
    ///   when the shared state cannot be read or written.
    public func list() throws(TargetError) -> RecentTargets {
        let (stored, movedAside) = try tolerating { try state.value(for: key) }
        if let targets = Self.decode(stored) {
            return RecentTargets(targets: Array(targets.prefix(limit)), warning: movedAside)
        }
        // Reset under the store's lock: another process may have fixed it meanwhile.
        return try change { $0 }
    }

    /// Puts `target` first; an entry of the same kind and id goes, and the
    /// oldest beyond ``limit``.
    /// - Parameter target: the target a share just went to.
    /// - Returns: the list after the change.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
    @discardableResult
    public func record(_ target: ShareTarget) throws(TargetError) -> RecentTargets {
        try change { targets in
            [target] + targets.filter { !($0.kind == target.kind && $0.id == target.id) }
        }
    }

    /// Removes every target whose id is in `ids`.
    /// - Parameter ids: thread and channel ids (those of `access.changed`).
    /// - Returns: the list after the change.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
    @discardableResult
    public func remove(ids: Set<String>) throws(TargetError) -> RecentTargets {
        try change { targets in targets.filter { !ids.contains($0.id) } }
    }

    /// Removes the stored list.
    /// - Throws: ``ShareKitTargetStoreInterface/TargetError/unavailable(reason:retryable:)``.
    public func removeAll() throws(TargetError) {
        do {
            try state.set(nil, for: key)
        } catch {
            throw Self.unavailable(error)
        }
    }

    // MARK: - Storage

    /// Applies `transform` to the stored list (empty when it was corrupt) and
    /// stores the result, cut to ``limit``, as one atomic update.
    private func change(_ transform: ([ShareTarget]) -> [ShareTarget]) throws(TargetError) -> RecentTargets {
        let limit = limit
        var result = RecentTargets(targets: [])
        let (_, movedAside) = try tolerating {
            try state.update(key) { stored in
                var current: [ShareTarget] = []
                if let targets = Self.decode(stored) {
                    current = targets
                } else {
                    result.warning =
                        "the recent targets could not be read (not a JSON list of targets) "
                        + "and were reset to an empty list"
                }
                result.targets = Array(transform(current).prefix(limit))
                return result.targets.isEmpty ? nil : try Self.encode(result.targets)
            }
        }
        result.warning = result.warning ?? movedAside
        return result
    }

    /// Runs `body` on the shared state; when the state file itself was
    /// corrupt, the store has moved it aside and starts empty, so `body` runs
    /// once more and the move is returned as a warning.
    private func tolerating<T>(_ body: () throws -> T) throws(TargetError) -> (T, String?) {
        do {
            return (try body(), nil)
        } catch SharedStateError.corruptMovedAside(let path, let movedTo, let reason) {
            let warning = SharedStateError.corruptMovedAside(path: path, movedTo: movedTo, reason: reason).description
            do {
                return (try body(), warning)
            } catch let error as TargetError {
                throw error
            } catch {
                throw Self.unavailable(error)
            }
        } catch let error as TargetError {
            throw error
        } catch {
            throw Self.unavailable(error)
        }
    }

    /// The stored list: empty when nothing is stored, nil when the stored
    /// value is not a JSON list of targets (the caller resets it and warns).
    static func decode(_ stored: String?) -> [ShareTarget]? {
        guard let stored else { return [] }
        return try? JSONDecoder().decode([ShareTarget].self, from: Data(stored.utf8))
    }

    static func encode(_ targets: [ShareTarget]) throws(TargetError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(targets) else {
            throw .unavailable(reason: "the recent targets could not be encoded", retryable: false)
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func unavailable(_ error: any Error) -> TargetError {
        .unavailable(reason: "the shared state failed: \(error)", retryable: false)
    }
}
