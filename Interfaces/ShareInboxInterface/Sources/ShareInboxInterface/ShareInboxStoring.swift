/// An exclusive, cross-process hold on one inbox entry (or a draft). While
/// a process holds it, no other process takes the entry over. Released by
/// ``release()`` or when the object goes away (and by the kernel when the
/// process dies, so a killed `share` never blocks the daemon).
public protocol InboxEntryLock: AnyObject, Sendable {
    /// The entry's id.
    var id: String { get }
    /// Gives the hold up; idempotent.
    func release()
}

/// A draft entry: a private staging folder that receives the copies before
/// the entry appears in the inbox. Its lock is taken before anything is
/// written and survives ``ShareInboxStoring/commit(_:manifest:)`` (the
/// rename keeps the folder), so the daemon can never see the new entry
/// unlocked before the sender gave it up.
public protocol InboxDraft: InboxEntryLock {
    /// The staging folder (copy files here).
    var directory: String { get }
}

/// The write-ahead share inbox in the shared container
/// (docs/adr/0006-write-ahead-inbox-and-outbox.md): a share exists here before its first
/// byte goes to the server, until it is sent or handed to the daemon's
/// outbox. Completion is explicit (``markProcessed(_:)``), never a side
/// effect of reading.
public protocol ShareInboxStoring: Sendable {
    /// Starts a new entry in a staging folder, locked.
    /// - Parameter id: the share's `client_msg_id`.
    /// - Throws: ``InboxError``.
    func makeDraft(id: String) throws(InboxError) -> any InboxDraft

    /// Writes the manifest into the draft and renames the draft into the
    /// inbox in one step, so no half-written entry is ever visible. The
    /// draft's lock stays held.
    ///
    /// Durability: the manifest and the folders are synced to the disk, but
    /// the files the caller copied into the draft are not: a caller that
    /// needs them to survive a power cut syncs each (`fsync`) before it
    /// commits.
    /// - Throws: ``InboxError`` (the draft is left for ``discard(_:)``).
    func commit(_ draft: any InboxDraft, manifest: InboxManifest) throws(InboxError) -> InboxEntry

    /// Removes a draft that will not be committed and releases it.
    func discard(_ draft: any InboxDraft)

    /// Lists the inbox. Entries that cannot be used (no or unreadable
    /// manifest, a newer format, names escaping the folder, missing or
    /// wrong-sized files, an id that does not match) are quarantined with a
    /// reason; a locked entry that looks incomplete is left alone.
    /// - Throws: ``InboxError`` only when the inbox folder itself cannot be read.
    func scan() throws(InboxError) -> InboxScan

    /// Takes the lock of one entry.
    /// - Parameters:
    ///   - id: the entry's id.
    ///   - wait: wait for another holder (true) or give up at once (false).
    /// - Returns: the lock and the entry as read under it, or nil when
    ///   another process holds it (`wait == false`) or it is gone.
    /// - Throws: ``InboxError`` when it is corrupt (it is quarantined) or unreadable.
    func lock(id: String, wait: Bool) throws(InboxError) -> (any InboxEntryLock, InboxEntry)?

    /// Replaces an entry's manifest atomically (completed upload ids,
    /// attempts, last error). The caller holds the entry's lock.
    /// - Throws: ``InboxError``.
    func update(_ entry: InboxEntry, manifest: InboxManifest, lock: any InboxEntryLock) throws(InboxError)
        -> InboxEntry

    /// Explicit completion: the share was delivered (or now lives in the
    /// outbox); the entry folder is deleted. The caller holds the lock.
    /// - Throws: ``InboxError`` when it cannot be deleted.
    func markProcessed(_ entry: InboxEntry, lock: any InboxEntryLock) throws(InboxError)

    /// Moves an entry (or any folder of the inbox) to quarantine with a reason.
    /// - Throws: ``InboxError``.
    func quarantine(id: String, reason: String) throws(InboxError) -> QuarantinedEntry

    /// Deletes an entry whatever its state (`share inbox drop`), taking its
    /// lock first (waits for a sender to finish) unless it is quarantined.
    /// - Returns: false when there is no such entry.
    /// - Throws: ``InboxError``.
    func drop(id: String) throws(InboxError) -> Bool

    /// Locks up to `limit` free entries not in `skipping`, each read and
    /// checked once under its lock (a takeover's batch). A default
    /// implementation (on ``scan()`` and ``lock(id:wait:)``) is in InboxBatch.swift.
    /// - Throws: ``InboxError`` only when the inbox itself cannot be read.
    func lockFreeEntries(limit: Int, skipping: Set<String>) throws(InboxError) -> InboxLockedEntries

    /// Completes several locked entries; each leaves the inbox in this call,
    /// its folder may be deleted afterwards. A default implementation (one
    /// ``markProcessed(_:lock:)`` each) is in InboxBatch.swift.
    /// - Returns: per entry, nil when it left the inbox, else why not.
    func markProcessed(_ entries: [LockedInboxEntry]) -> [InboxError?]

    /// Waits until folders of completed entries are deleted (before a process exits).
    func waitForRemovals()

    /// How many completed entries ``markProcessed(_:lock:)`` left the inbox
    /// without being deleted yet, for ``removeLeftovers()`` to delete (an
    /// inbox may leave large entries for later so that the process that sent
    /// them need not wait for the deletion). A default of 0 is in InboxBatch.swift.
    var removalsLeft: Int { get }

    /// Deletes what completed, cancelled or killed shares left behind
    /// (`share inbox clean`); folders a live process holds stay. A default
    /// that deletes nothing is in InboxBatch.swift.
    /// - Returns: how many folders were deleted.
    /// - Throws: ``InboxError`` when the inbox cannot be opened.
    @discardableResult
    func removeLeftovers() throws(InboxError) -> Int
}
