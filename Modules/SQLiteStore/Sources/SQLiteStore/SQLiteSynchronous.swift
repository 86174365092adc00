/// How hard SQLite works to make a commit survive a power cut (`PRAGMA synchronous`).
///
/// Both settings keep every committed transaction when only the process
/// dies (a crash, `SIGKILL`): the operating system still holds the written
/// pages. They differ when the machine loses power.
public enum SQLiteSynchronous: String, Sendable, Hashable {
    /// Every commit is flushed to the disk before it returns: a committed
    /// transaction survives a power cut. The default, for queues that must
    /// not lose an acknowledged entry (the outbox).
    case full = "FULL"
    /// The write-ahead log is flushed only at checkpoints: faster, the
    /// database stays consistent, but the last commits before a power cut
    /// may be lost.
    case normal = "NORMAL"
}
