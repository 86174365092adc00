/// The app-group container: one directory that the CLI and the daemon share
/// for the share inbox, copied files and locks.
public protocol SharedContainer: Sendable {
    /// The container's root directory (0700).
    var rootPath: String { get }
    /// Where inbox entries live.
    var inboxPath: String { get }
    /// Where cross-process lock files live.
    var locksPath: String { get }
    /// The key-value state of the container.
    var state: any SharedStateStore { get }
    /// Named cross-process locks kept in ``locksPath`` (single-flight token
    /// refresh, inbox entry takeover).
    var locks: any CrossProcessLocking { get }
}
