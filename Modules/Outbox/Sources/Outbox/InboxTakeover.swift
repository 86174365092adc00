import Foundation
import ShareKitCore
public import ShareKitInboxInterface
public import ShareKitOutboxInterface

/// Takes share inbox entries over into the outbox with the same
/// `client_msg_id`, idempotently: an entry the outbox already holds is only
/// completed (docs/adr/0006-write-ahead-inbox-and-outbox.md).
///
/// A pass works in batches. The inbox locks a batch of entries no one else
/// holds, reading each once under its lock. An entry with files gets the
/// outbox's own copy of every file (hard links on one file system, else
/// streamed copies) unless the outbox already has its `client_msg_id` (an
/// earlier takeover died after storing it); the copies are made durable
/// together, with one flush. Then the batch's items are stored in one
/// transaction (carrying the upload ids and attempts the CLI recorded), and
/// only then do the entries leave the inbox, each by one rename (the inbox
/// deletes the folders afterwards, in the background). The entry lock and
/// the outbox's primary key make the takeover exactly once even when two
/// processes run it at the same time, and repeating it after a crash at any
/// point adds nothing twice. Batches keep the syncs per entry far below one,
/// so a thousand small entries are not a thousand disk flushes.
public struct InboxTakeover: OutboxTakingOver {
    private let inbox: any ShareInboxStoring
    private let outbox: any OutboxQueueing
    private let clock: @Sendable () -> Int64
    private let batchSize: Int

    /// - Parameters:
    ///   - inbox: the share inbox in the shared container.
    ///   - outbox: the daemon's outbox.
    ///   - clock: now, in milliseconds since 1970 (a new item is due at once).
    ///   - batchSize: entries held, synced and stored together (at least 1;
    ///     each holds a descriptor while its batch is at work).
    public init(
        inbox: any ShareInboxStoring, outbox: any OutboxQueueing,
        clock: @escaping @Sendable () -> Int64 = OutboxDrainer.systemClock, batchSize: Int = 256
    ) {
        self.inbox = inbox
        self.outbox = outbox
        self.clock = clock
        self.batchSize = max(1, batchSize)
    }

    /// One pass over the inbox. A corrupt entry is quarantined (when its
    /// lock is taken) and reported; an entry that fails for another reason
    /// is reported and left for the next pass; neither stops the others.
    /// Entries that arrive during the pass are taken too.
    /// - Returns: what happened to each entry.
    /// - Throws: ``ShareKitInboxInterface/InboxError`` only when the inbox itself cannot be read.
    public func run() throws(InboxError) -> TakeoverReport {
        var report = TakeoverReport()
        var seen: Set<String> = []
        while true {
            let batch = try inbox.lockFreeEntries(limit: batchSize, skipping: seen)
            // The quarantine as it is now: what this pass moved there and what was there before.
            report.quarantined = batch.quarantined
            report.skippedLocked += batch.busy
            report.failed += batch.failed.map { TakeoverReport.Failure(id: $0.id, reason: $0.reason) }
            seen.formUnion(batch.busy)
            seen.formUnion(batch.failed.map(\.id))
            seen.formUnion(batch.locked.map(\.entry.id))
            guard !batch.locked.isEmpty else { return report }
            takeOver(withoutUndoWindows(batch.locked, into: &report), into: &report)
        }
    }

    /// The entries of a batch that may be taken over now. An entry whose
    /// undo window lasts (a share interrupted with Ctrl-C) stays in the
    /// inbox, its lock given up, so the person can still drop it; one whose
    /// `not_before` is further ahead than any window is reported and taken.
    private func withoutUndoWindows(_ batch: [LockedInboxEntry], into report: inout TakeoverReport)
        -> [LockedInboxEntry]
    {
        let now = clock()
        return batch.filter { locked in
            switch locked.entry.manifest.undoWait(now: now) {
            case .waiting(let until):
                locked.lock.release()
                report.waiting.append(TakeoverReport.Waiting(id: locked.entry.id, until: until))
                return false
            case .outOfRange:
                report.windowsNotHonoured.append(locked.entry.id)
                return true
            case nil:
                return true
            }
        }
    }

    /// An entry ready to be stored: its item, and whether its files were copied for it.
    private struct Prepared {
        let locked: LockedInboxEntry
        let item: OutboxItem
    }

    /// Takes a batch of locked entries over; every lock is given up.
    private func takeOver(_ batch: [LockedInboxEntry], into report: inout TakeoverReport) {
        var prepared: [Prepared] = []
        var alreadyStored: [LockedInboxEntry] = []
        var unusable: [(id: String, reason: String)] = []
        for locked in batch {
            do {
                switch try prepare(locked.entry) {
                case .item(let item): prepared.append(Prepared(locked: locked, item: item))
                case .inOutbox: alreadyStored.append(locked)
                case .unusable(let reason):
                    locked.lock.release()
                    unusable.append((locked.entry.id, reason))
                }
            } catch {
                locked.lock.release()
                report.failed.append(TakeoverReport.Failure(id: locked.entry.id, reason: "\(error)"))
            }
        }
        var added: [Bool] = []
        if !prepared.isEmpty {
            do {
                try OutboxFiles.syncDirectories(prepared.map { outboxFolder(of: $0.item) })
                added = try outbox.enqueue(prepared.map(\.item))
            } catch {
                // They stay in the inbox; the next pass copies them again.
                for entry in prepared { entry.locked.lock.release() }
                report.failed += prepared.map { TakeoverReport.Failure(id: $0.locked.entry.id, reason: "\(error)") }
                prepared = []
            }
        }
        // Only now does the outbox hold them: the entries may leave the inbox.
        let done = prepared.map(\.locked) + alreadyStored
        // An item the outbox had already (an earlier takeover died after storing it) was left as it was.
        let wasThere =
            prepared.indices.map { added.indices.contains($0) && !added[$0] } + alreadyStored.map { _ in true }
        for (index, failure) in inbox.markProcessed(done).enumerated() {
            let id = done[index].entry.id
            if let failure {
                report.failed.append(TakeoverReport.Failure(id: id, reason: "\(failure)"))
            } else if wasThere[index] {
                report.alreadyInOutbox.append(id)
            } else {
                report.takenOver.append(id)
            }
        }
        // Quarantine after the locks are given up: the inbox takes them itself.
        for (id, reason) in unusable {
            do {
                report.quarantined.append(try inbox.quarantine(id: id, reason: reason))
            } catch {
                report.failed.append(TakeoverReport.Failure(id: id, reason: "\(error)"))
            }
        }
    }

    /// What one entry comes to before the batch is stored.
    private enum Preparation {
        case item(OutboxItem)
        case inOutbox
        case unusable(String)
    }

    /// Describes an entry as an outbox item, giving the outbox its own copy
    /// of its files first. An entry with files that the outbox already holds
    /// is not copied again (the outbox's item keeps its own files); one
    /// without files needs no look: storing it again changes nothing.
    /// - Throws: ``ShareKitOutboxInterface/OutboxError``.
    private func prepare(_ entry: InboxEntry) throws(OutboxError) -> Preparation {
        guard let clientMsgID = try? UUIDv7(string: entry.manifest.clientMsgID) else {
            return .unusable("client_msg_id '\(entry.manifest.clientMsgID)' is not a UUIDv7")
        }
        if !entry.manifest.attachments.isEmpty, try outbox.contains(clientMsgID) { return .inOutbox }
        do throws(OutboxError) {
            return .item(try copy(entry, as: clientMsgID))
        } catch .invalidItem(let why) {
            return .unusable(why)
        }
    }

    /// The folder of an item's files (the parent of its copies).
    private func outboxFolder(of item: OutboxItem) -> String {
        guard let path = item.attachments.first?.storedPath, let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Gives the outbox its own copy of the entry's files and describes the item.
    private func copy(_ entry: InboxEntry, as clientMsgID: UUIDv7) throws(OutboxError) -> OutboxItem {
        var attachments: [OutboxAttachment] = []
        let files = entry.manifest.attachments
        let folder = files.isEmpty ? "" : try outbox.filesDirectory(for: clientMsgID)
        for (index, attachment) in files.enumerated() {
            // The index keeps two attachments with one name apart.
            let stored = folder + "/\(index)-" + attachment.file
            let size = try OutboxFiles.linkOrCopy(entry.path(of: attachment), to: stored)
            guard size == attachment.size else {
                try? OutboxFiles.removeFolder(folder)
                throw .invalidItem("\(attachment.file) has \(size) bytes, the manifest says \(attachment.size)")
            }
            var taken = OutboxAttachment(
                storedPath: stored, fileName: attachment.fileName, contentType: attachment.contentType,
                size: attachment.size, completedUploadID: attachment.completedUploadID)
            // The copy's digests go with it: the daemon's upload hashes nothing.
            taken.partDigests = attachment.partDigests
            attachments.append(taken)
        }
        let now = clock()
        let manifest = entry.manifest
        return OutboxItem(
            clientMsgID: clientMsgID, serverOrigin: manifest.serverOrigin, target: manifest.target,
            text: manifest.comment, title: manifest.title, attachments: attachments, attempts: manifest.attempts,
            nextAttemptAt: now, lastError: manifest.lastError,
            createdAt: RFC3339.unixMilliseconds(manifest.createdAt) ?? now, updatedAt: now)
    }
}
