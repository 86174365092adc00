import Foundation
public import ShareKitInboxInterface
import Synchronization

/// The test double of ``ShareKitInboxInterface/ShareInboxStoring``: the share
/// inbox's entries, locks and quarantine kept in memory, each entry's
/// files in a real folder below `filesRoot` (a sender writes them into the
/// draft's ``ShareKitInboxInterface/InboxDraft/directory``; a taker reads
/// them from the entry's).
///
/// Locks are the fake's own and hold within the process: a draft holds its
/// entry until released, and ``lock(id:wait:)`` answers nil for an entry
/// held (it never waits). Entries are listed in id order with an age of 0;
/// nothing is ever stale. What it records: the entries themselves
/// (``scan()``), the quarantine (``quarantined``) and the ids completed
/// with ``markProcessed(_:lock:)`` (``processed``). Failures are scripted:
///
/// ```swift
/// let inbox = InMemoryShareInbox(filesRoot: temporary.path)
/// inbox.corrupt(id: "share-2", reason: "manifest.json is not valid")  // quarantined when locked
/// inbox.fail(.markProcessed, with: .io(path: "share-3", reason: "EIO"))   // the next completion fails
/// ```
public final class InMemoryShareInbox: ShareInboxStoring {
    /// An operation whose next call can be made to fail.
    public enum Operation: String, Hashable, Sendable, CaseIterable {
        /// ``InMemoryShareInbox/makeDraft(id:)``.
        case makeDraft
        /// ``InMemoryShareInbox/commit(_:manifest:)``.
        case commit
        /// ``InMemoryShareInbox/scan()``.
        case scan
        /// ``InMemoryShareInbox/update(_:manifest:lock:)``.
        case update
        /// ``InMemoryShareInbox/markProcessed(_:lock:)``.
        case markProcessed
    }

    /// A held entry (a draft until committed).
    final class Hold: InboxDraft {
        let id: String
        let directory: String
        private let onRelease: @Sendable (String, Hold) -> Void

        init(id: String, directory: String, onRelease: @escaping @Sendable (String, Hold) -> Void) {
            self.id = id
            self.directory = directory
            self.onRelease = onRelease
        }

        func release() { onRelease(id, self) }
    }

    private struct State {
        var entries: [String: InboxManifest] = [:]
        var drafts: Set<String> = []
        var held: [String: ObjectIdentifier] = [:]
        var corrupt: [String: String] = [:]
        var quarantined: [QuarantinedEntry] = []
        var processed: [String] = []
        var failures: [Operation: [InboxError]] = [:]
    }

    /// Where the entries' folders are.
    public let filesRoot: String
    private let state = Mutex(State())

    /// Makes an empty inbox.
    /// - Parameter filesRoot: an existing folder for the entries' files (a test's temporary directory).
    public init(filesRoot: String) {
        self.filesRoot = filesRoot
    }

    /// The entries quarantined so far, in order.
    public var quarantined: [QuarantinedEntry] { state.withLock { $0.quarantined } }

    /// The ids completed with ``markProcessed(_:lock:)`` so far, in order.
    public var processed: [String] { state.withLock { $0.processed } }

    /// Makes the next call of `operation` throw `error` (calls queue up, one error each).
    /// - Parameters:
    ///   - operation: the operation.
    ///   - error: what it throws.
    public func fail(_ operation: Operation, with error: InboxError) {
        state.withLock { $0.failures[operation, default: []].append(error) }
    }

    /// Makes the entry `id` read as corrupt: the next ``lock(id:wait:)`` (or a
    /// batch's) quarantines it with `reason`, as the real inbox does with a
    /// manifest it cannot read.
    /// - Parameters:
    ///   - id: the entry.
    ///   - reason: the quarantine's reason.
    public func corrupt(id: String, reason: String) {
        state.withLock { $0.corrupt[id] = reason }
    }

    private func check(_ operation: Operation) throws(InboxError) {
        let failure = state.withLock { state -> InboxError? in
            guard var queued = state.failures[operation], !queued.isEmpty else { return nil }
            let first = queued.removeFirst()
            state.failures[operation] = queued
            return first
        }
        if let failure { throw failure }
    }

    private func directory(_ id: String) -> String { filesRoot + "/" + id }

    private func hold(_ id: String) -> Hold {
        let hold = Hold(id: id, directory: directory(id)) { [weak self] id, hold in
            self?.state.withLock { state in
                if state.held[id] == ObjectIdentifier(hold) { state.held[id] = nil }
                // A draft released without a commit is gone.
                if state.drafts.remove(id) != nil, state.entries[id] == nil {
                    try? FileManager.default.removeItem(atPath: self?.directory(id) ?? "")
                }
            }
        }
        state.withLock { $0.held[id] = ObjectIdentifier(hold) }
        return hold
    }

    private func isHeld(_ lock: any InboxEntryLock, for id: String) -> Bool {
        state.withLock { $0.held[id] == ObjectIdentifier(lock) }
    }

    /// Makes a draft: a held, empty folder for the entry's files.
    /// - Parameter id: the share's `client_msg_id` (a plain name: no `/`, not starting with `.`).
    /// - Returns: the draft.
    /// - Throws: `invalidID`, `exists`, `io`, or a scripted failure.
    public func makeDraft(id: String) throws(InboxError) -> any InboxDraft {
        try check(.makeDraft)
        guard !id.isEmpty, id.count <= 64, !id.hasPrefix("."), !id.contains("/") else { throw .invalidID(id) }
        let taken = state.withLock { $0.entries[id] != nil || $0.drafts.contains(id) }
        guard !taken else { throw .exists(id) }
        do {
            try FileManager.default.createDirectory(
                atPath: directory(id), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory(id), reason: "\(error)")
        }
        state.withLock { _ = $0.drafts.insert(id) }
        return hold(id)
    }

    /// Commits a draft: the entry is listed, still held by the draft.
    /// - Parameters:
    ///   - draft: the draft.
    ///   - manifest: the entry's manifest.
    /// - Returns: the entry.
    /// - Throws: a scripted failure.
    public func commit(_ draft: any InboxDraft, manifest: InboxManifest) throws(InboxError) -> InboxEntry {
        try check(.commit)
        state.withLock { $0.entries[draft.id] = manifest }
        return InboxEntry(
            id: draft.id, directory: directory(draft.id), manifest: manifest, ageSeconds: 0, isLocked: true)
    }

    /// Removes a draft that will not be committed, and releases it.
    /// - Parameter draft: the draft.
    public func discard(_ draft: any InboxDraft) {
        draft.release()
    }

    /// The committed entries in id order, and the quarantine.
    /// - Returns: the scan.
    /// - Throws: a scripted failure.
    public func scan() throws(InboxError) -> InboxScan {
        try check(.scan)
        return state.withLock { state in
            InboxScan(
                entries: state.entries.keys.sorted().map { id in
                    InboxEntry(
                        id: id, directory: directory(id), manifest: state.entries[id]!, ageSeconds: 0,
                        isLocked: state.held[id] != nil)
                }, quarantined: state.quarantined, stale: [])
        }
    }

    /// Takes an entry's lock.
    /// - Parameters:
    ///   - id: the entry.
    ///   - wait: ignored: the fake never waits.
    /// - Returns: the lock and the entry, nil when it is held or gone.
    /// - Throws: `quarantined` for an entry made corrupt with ``corrupt(id:reason:)``.
    public func lock(id: String, wait: Bool) throws(InboxError) -> (any InboxEntryLock, InboxEntry)? {
        if let reason = state.withLock({ $0.corrupt.removeValue(forKey: id) }) {
            _ = try quarantine(id: id, reason: reason)
            throw .quarantined(id: id, reason: reason)
        }
        guard let manifest = state.withLock({ $0.held[id] == nil ? $0.entries[id] : nil }) else { return nil }
        return (
            hold(id), InboxEntry(id: id, directory: directory(id), manifest: manifest, ageSeconds: 0, isLocked: true)
        )
    }

    /// Replaces an entry's manifest under its held lock.
    /// - Parameters:
    ///   - entry: the entry.
    ///   - manifest: the new manifest.
    ///   - lock: the entry's lock.
    /// - Returns: the entry with the new manifest.
    /// - Throws: `unusable` when the lock is not held, or a scripted failure.
    public func update(_ entry: InboxEntry, manifest: InboxManifest, lock: any InboxEntryLock) throws(InboxError)
        -> InboxEntry
    {
        try check(.update)
        guard isHeld(lock, for: entry.id) else { throw .unusable(reason: "the lock of \(entry.id) is not held") }
        state.withLock { $0.entries[entry.id] = manifest }
        var updated = entry
        updated.manifest = manifest
        return updated
    }

    /// Completes an entry: it leaves the inbox with its folder.
    /// - Parameters:
    ///   - entry: the entry.
    ///   - lock: the entry's lock.
    /// - Throws: `unusable` when the lock is not held, or a scripted failure.
    public func markProcessed(_ entry: InboxEntry, lock: any InboxEntryLock) throws(InboxError) {
        try check(.markProcessed)
        guard isHeld(lock, for: entry.id) else { throw .unusable(reason: "the lock of \(entry.id) is not held") }
        state.withLock { state in
            state.entries[entry.id] = nil
            state.processed.append(entry.id)
        }
        try? FileManager.default.removeItem(atPath: directory(entry.id))
    }

    /// Moves an entry to the quarantine with a reason.
    /// - Parameters:
    ///   - id: the entry.
    ///   - reason: why.
    /// - Returns: the quarantined entry.
    public func quarantine(id: String, reason: String) throws(InboxError) -> QuarantinedEntry {
        let entry = QuarantinedEntry(id: id, directory: directory(id), reason: reason)
        state.withLock { state in
            state.entries[id] = nil
            state.quarantined.append(entry)
        }
        return entry
    }

    /// Deletes an entry whatever its state.
    /// - Parameter id: the entry.
    /// - Returns: false when there is no such entry.
    public func drop(id: String) throws(InboxError) -> Bool {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/") else { throw .invalidID(id) }
        let removed = state.withLock { $0.entries.removeValue(forKey: id) != nil }
        if removed { try? FileManager.default.removeItem(atPath: directory(id)) }
        return removed
    }
}
