import Foundation
public import OutboxInterface
import ShareCore
public import ShareInboxInterface

/// Takes share inbox entries over into the outbox with the same
/// `client_msg_id`, idempotently: an entry the outbox already holds is only
/// completed (docs/adr/0006-write-ahead-inbox-and-outbox.md).
///
/// For each entry no one holds: take its lock without waiting; if the
/// outbox already has the `client_msg_id` (an earlier takeover died after
/// storing it), only complete the entry; else give the outbox its own copy
/// of every file (hard links on one file system, else streamed copies) and
/// check the sizes. Then, for a batch of entries at once, make the copies
/// durable with one file system sync, store the items in one transaction
/// (carrying the upload ids and attempts the CLI recorded), and only then
/// complete each entry, which deletes its folder. The entry lock and the
/// outbox's primary key make the takeover exactly once even when two
/// processes run it at the same time, and repeating it after a crash at any
/// point adds nothing twice. Batches keep the syncs per entry below one, so
/// a thousand small entries are not a thousand disk flushes.
public struct InboxTakeover: OutboxTakingOver {
    private let inbox: any ShareInboxStoring
    private let outbox: any OutboxQueueing
    private let clock: @Sendable () -> Int64
    private let batchSize: Int

    /// - Parameters:
    ///   - inbox: the share inbox in the shared container.
    ///   - outbox: the daemon's outbox.
    ///   - clock: now, in milliseconds since 1970 (a new item is due at once).
    ///   - batchSize: entries held, synced and stored together (at least 1).
    public init(
        inbox: any ShareInboxStoring, outbox: any OutboxQueueing,
        clock: @escaping @Sendable () -> Int64 = OutboxDrainer.systemClock, batchSize: Int = 64
    ) {
        self.inbox = inbox
        self.outbox = outbox
        self.clock = clock
        self.batchSize = max(1, batchSize)
    }

    /// One pass over the inbox. A corrupt entry is quarantined by the scan
    /// (or when its lock is taken) and reported; an entry that fails for
    /// another reason is reported and left for the next pass; neither stops
    /// the others.
    /// - Returns: what happened to each entry.
    /// - Throws: ``ShareInboxInterface/InboxError`` only when the inbox itself cannot be read.
    public func run() throws(InboxError) -> TakeoverReport {
        let scan = try inbox.scan()
        var report = TakeoverReport(quarantined: scan.quarantined)
        report.skippedLocked = scan.entries.filter(\.isLocked).map(\.id)
        let free = scan.entries.filter { !$0.isLocked }.map(\.id)
        for start in stride(from: 0, to: free.count, by: batchSize) {
            takeOver(Array(free[start..<min(start + batchSize, free.count)]), into: &report)
        }
        return report
    }

    /// An entry whose files the outbox has copied, still locked.
    private struct Copied {
        let lock: any InboxEntryLock
        let entry: InboxEntry
        let item: OutboxItem
    }

    /// Takes a batch of entries over.
    private func takeOver(_ ids: [String], into report: inout TakeoverReport) {
        var copied: [Copied] = []
        var unusable: [(id: String, reason: String)] = []
        defer { for done in copied { done.lock.release() } }
        for id in ids {
            do {
                switch try prepare(id) {
                case .locked: report.skippedLocked.append(id)
                case .completed: report.alreadyInOutbox.append(id)
                case .unusable(let reason): unusable.append((id, reason))
                case .copied(let done): copied.append(done)
                }
            } catch InboxError.quarantined(let id, let reason) {
                report.quarantined.append(QuarantinedEntry(id: id, directory: "", reason: reason))
            } catch {
                report.failed.append(TakeoverReport.Failure(id: id, reason: "\(error)"))
            }
        }
        if !copied.isEmpty {
            do {
                try OutboxFiles.syncDirectories(copied.map { outboxFolder(of: $0.item) })
                try outbox.enqueue(copied.map(\.item))
            } catch {
                // They stay in the inbox (the defer releases their locks);
                // the next pass copies them again.
                report.failed += copied.map { TakeoverReport.Failure(id: $0.entry.id, reason: "\(error)") }
                return
            }
        }
        // Only now does the outbox hold its own copies: the folders may go.
        for done in copied {
            do {
                try inbox.markProcessed(done.entry, lock: done.lock)
                report.takenOver.append(done.entry.id)
            } catch {
                report.failed.append(TakeoverReport.Failure(id: done.entry.id, reason: "\(error)"))
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

    /// What became of one entry before the batch is stored.
    private enum Prepared {
        case locked
        case completed
        case unusable(String)
        case copied(Copied)
    }

    /// Locks one entry and copies its files, or completes it when the outbox has it already.
    /// - Throws: ``ShareInboxInterface/InboxError`` or ``OutboxInterface/OutboxError``; the lock is released then.
    private func prepare(_ id: String) throws -> Prepared {
        guard let (lock, entry) = try inbox.lock(id: id, wait: false) else { return .locked }
        do {
            guard let clientMsgID = try? UUIDv7(string: entry.manifest.clientMsgID) else {
                lock.release()
                return .unusable("client_msg_id '\(entry.manifest.clientMsgID)' is not a UUIDv7")
            }
            if try outbox.contains(clientMsgID) {
                try inbox.markProcessed(entry, lock: lock)
                lock.release()
                return .completed
            }
            return .copied(Copied(lock: lock, entry: entry, item: try copy(entry, as: clientMsgID)))
        } catch OutboxError.invalidItem(let why) {
            lock.release()
            return .unusable(why)
        } catch {
            lock.release()
            throw error
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
            attachments.append(
                OutboxAttachment(
                    storedPath: stored, fileName: attachment.fileName, contentType: attachment.contentType,
                    size: attachment.size, completedUploadID: attachment.completedUploadID))
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
