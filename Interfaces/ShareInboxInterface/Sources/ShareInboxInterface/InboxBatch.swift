/// An entry locked by ``ShareInboxStoring/lockFreeEntries(limit:skipping:)``,
/// read and checked under its lock.
public struct LockedInboxEntry: Sendable {
    /// The entry as read under the lock.
    public var entry: InboxEntry
    /// The hold on it: release it, or complete the entry with it.
    public var lock: any InboxEntryLock

    /// Makes a value.
    public init(entry: InboxEntry, lock: any InboxEntryLock) {
        self.entry = entry
        self.lock = lock
    }
}

/// What one call of ``ShareInboxStoring/lockFreeEntries(limit:skipping:)`` found.
public struct InboxLockedEntries: Sendable {
    /// The entries this call locked, oldest id first.
    public var locked: [LockedInboxEntry]
    /// Entries another holder has now (a `share` at work, another takeover).
    public var busy: [String]
    /// Entries that could be neither locked nor quarantined now (a file
    /// system error), with the reason; they stay for a later pass.
    public var failed: [(id: String, reason: String)]
    /// Everything in quarantine after this call, with reasons (moved by it or earlier).
    public var quarantined: [QuarantinedEntry]

    /// Makes a value.
    public init(
        locked: [LockedInboxEntry] = [], busy: [String] = [], failed: [(id: String, reason: String)] = [],
        quarantined: [QuarantinedEntry] = []
    ) {
        self.locked = locked
        self.busy = busy
        self.failed = failed
        self.quarantined = quarantined
    }
}

extension ShareInboxStoring {
    /// Locks up to `limit` free entries whose ids are not in `skipping`,
    /// reading and checking each once under its lock: the step of a pass
    /// that takes many entries (the daemon's takeover), which would
    /// otherwise list every entry and then lock and read it again. Entries
    /// that are unusable are quarantined as ``scan()`` does. A pass calls it
    /// until nothing more is locked, with every id it has seen in `skipping`.
    ///
    /// This default lists the inbox with ``scan()`` and locks each entry with
    /// ``lock(id:wait:)``; an inbox can do it in one go.
    /// - Parameters:
    ///   - limit: the most entries locked (at least one).
    ///   - skipping: ids this pass has already seen.
    /// - Returns: the locked entries, the busy ones, failures and the quarantine.
    /// - Throws: ``InboxError`` only when the inbox itself cannot be read.
    public func lockFreeEntries(limit: Int, skipping: Set<String>) throws(InboxError) -> InboxLockedEntries {
        let scan = try scan()
        var result = InboxLockedEntries(quarantined: scan.quarantined)
        for candidate in scan.entries.sorted(by: { $0.id < $1.id }) where !skipping.contains(candidate.id) {
            guard result.locked.count < max(1, limit) else { break }
            guard !candidate.isLocked else {
                result.busy.append(candidate.id)
                continue
            }
            do {
                if let (lock, entry) = try lock(id: candidate.id, wait: false) {
                    result.locked.append(LockedInboxEntry(entry: entry, lock: lock))
                } else {
                    result.busy.append(candidate.id)
                }
            } catch .quarantined(let id, let reason) {
                result.quarantined.append(QuarantinedEntry(id: id, directory: "", reason: reason))
            } catch {
                result.failed.append((candidate.id, "\(error)"))
            }
        }
        return result
    }

    /// Completes several entries, each as ``markProcessed(_:lock:)`` does:
    /// each leaves the inbox in this call. An inbox may delete the folders
    /// afterwards, in the background (``waitForRemovals()``), so that taking
    /// a thousand entries over costs a thousand renames rather than a
    /// thousand deletions.
    ///
    /// This default completes them one by one (``markProcessedOneByOne(_:)``).
    /// - Parameter entries: locked entries; each lock is given up.
    /// - Returns: per entry, nil when it left the inbox, else why not (it stays).
    public func markProcessed(_ entries: [LockedInboxEntry]) -> [InboxError?] {
        markProcessedOneByOne(entries)
    }

    /// Completes entries one at a time with ``markProcessed(_:lock:)``: the
    /// default of ``markProcessed(_:)-([LockedInboxEntry])``, and the way
    /// back for an inbox whose own batch cannot start.
    /// - Parameter entries: locked entries; each lock is given up.
    /// - Returns: per entry, nil when it left the inbox, else why not (it stays).
    public func markProcessedOneByOne(_ entries: [LockedInboxEntry]) -> [InboxError?] {
        entries.map { locked -> InboxError? in
            defer { locked.lock.release() }
            do throws(InboxError) {
                try markProcessed(locked.entry, lock: locked.lock)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Waits until the folders of entries completed by
    /// ``markProcessed(_:)-([LockedInboxEntry])`` are deleted, for a process
    /// about to exit. This default deletes at once, so it returns at once.
    public func waitForRemovals() {}

    /// This default leaves nothing behind: every completed entry was deleted.
    public var removalsLeft: Int { 0 }

    /// This default has nothing to delete (entries are deleted when completed).
    @discardableResult
    public func removeLeftovers() throws(InboxError) -> Int { 0 }
}
