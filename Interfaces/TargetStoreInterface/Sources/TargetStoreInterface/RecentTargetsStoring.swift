public import ShareKitCore

/// The recent targets of one account on one server, which the CLI and the
/// daemon share: newest first, each target once (by kind and id), at most
/// `client.share.recent_targets`. A target's id names a thread or channel
/// of its own server only, so a store holds the targets of one account: a
/// list offered under another server would send elsewhere than it shows.
///
/// A target goes first after every successful send (``record(_:)``), so the
/// list holds only targets the person could write to; targets leave it on
/// logout (``removeAll()``) and when an access change removes them
/// (``remove(ids:)``). Implementations are safe under writers in several
/// processes at once and never lose an update.
public protocol RecentTargetsStoring: Sendable {
    /// The recent targets, newest first.
    /// - Returns: the list, with a warning when a corrupt list was reset.
    /// - Throws: ``TargetError/unavailable(reason:retryable:)`` when the storage cannot be read.
    func list() throws(TargetError) -> RecentTargets

    /// Puts `target` first, dropping an older entry of the same kind and id
    /// and the oldest entries beyond the limit.
    /// - Parameter target: the target a share just went to.
    /// - Returns: the list after the change.
    /// - Throws: ``TargetError/unavailable(reason:retryable:)`` when the storage cannot be written.
    @discardableResult
    func record(_ target: ShareTarget) throws(TargetError) -> RecentTargets

    /// Removes every target whose id is in `ids` (whatever its kind):
    /// `access.changed` names a channel together with its threads.
    /// - Parameter ids: thread and channel ids.
    /// - Returns: the list after the change.
    /// - Throws: ``TargetError/unavailable(reason:retryable:)`` when the storage cannot be written.
    @discardableResult
    func remove(ids: Set<String>) throws(TargetError) -> RecentTargets

    /// Forgets every recent target (logout).
    /// - Throws: ``TargetError/unavailable(reason:retryable:)`` when the storage cannot be written.
    func removeAll() throws(TargetError)
}
