import Foundation
public import OutboxInterface
import ShareCore
public import ShareInboxInterface

/// Takes share inbox entries over into the outbox with the same
/// `client_msg_id` (SPEC "ShareInbox", seed 000 note 5).
///
/// For each entry no one holds: take its lock without waiting; if the
/// outbox already has the `client_msg_id` (an earlier takeover died after
/// storing it), only complete the entry; else give the outbox its own copy
/// of every file (hard links on one file system, else streamed copies;
/// fsynced), check the sizes, store the item (carrying the upload ids and
/// attempts the CLI recorded), and only then complete the entry, which
/// deletes its folder. The entry lock and the outbox's primary key make the
/// takeover exactly once even when two processes run it at the same time,
/// and repeating it after a crash at any point adds nothing twice.
public struct InboxTakeover: Sendable {
    private let inbox: any ShareInboxStoring
    private let outbox: any OutboxQueueing
    private let clock: @Sendable () -> Int64

    /// - Parameters:
    ///   - inbox: the share inbox in the shared container.
    ///   - outbox: the daemon's outbox.
    ///   - clock: now, in milliseconds since 1970 (a new item is due at once).
    public init(
        inbox: any ShareInboxStoring, outbox: any OutboxQueueing,
        clock: @escaping @Sendable () -> Int64 = OutboxDrainer.systemClock
    ) {
        self.inbox = inbox
        self.outbox = outbox
        self.clock = clock
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
        for found in scan.entries {
            if found.isLocked {
                report.skippedLocked.append(found.id)
                continue
            }
            do {
                try takeOver(found.id, into: &report)
            } catch InboxError.quarantined(let id, let reason) {
                report.quarantined.append(QuarantinedEntry(id: id, directory: "", reason: reason))
            } catch {
                report.failed.append(TakeoverReport.Failure(id: found.id, reason: "\(error)"))
            }
        }
        return report
    }

    /// Takes one entry over under its lock.
    /// - Throws: ``ShareInboxInterface/InboxError`` or ``OutboxInterface/OutboxError``.
    private func takeOver(_ id: String, into report: inout TakeoverReport) throws {
        guard let (lock, entry) = try inbox.lock(id: id, wait: false) else {
            report.skippedLocked.append(id)
            return
        }
        var unusable: String?
        do {
            defer { lock.release() }
            if let clientMsgID = try? UUIDv7(string: entry.manifest.clientMsgID) {
                if try outbox.contains(clientMsgID) {
                    try inbox.markProcessed(entry, lock: lock)
                    report.alreadyInOutbox.append(id)
                    return
                }
                do {
                    try outbox.enqueue(try copy(entry, as: clientMsgID))
                    // Only now does the outbox hold its own copy: the folder may go.
                    try inbox.markProcessed(entry, lock: lock)
                    report.takenOver.append(id)
                    return
                } catch OutboxError.invalidItem(let why) {
                    unusable = why
                }
            } else {
                unusable = "client_msg_id '\(entry.manifest.clientMsgID)' is not a UUIDv7"
            }
        }
        // Quarantine after the lock is given up: the inbox takes it itself.
        if let unusable { report.quarantined.append(try inbox.quarantine(id: id, reason: unusable)) }
    }

    /// Gives the outbox its own copy of the entry's files and describes the item.
    private func copy(_ entry: InboxEntry, as clientMsgID: UUIDv7) throws(OutboxError) -> OutboxItem {
        let folder = try outbox.filesDirectory(for: clientMsgID)
        var attachments: [OutboxAttachment] = []
        for (index, attachment) in entry.manifest.attachments.enumerated() {
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
        try OutboxFiles.syncDirectory(folder)
        try OutboxFiles.syncDirectory((folder as NSString).deletingLastPathComponent)
        let now = clock()
        let manifest = entry.manifest
        return OutboxItem(
            clientMsgID: clientMsgID, serverOrigin: manifest.serverOrigin, target: manifest.target,
            text: manifest.comment, title: manifest.title, attachments: attachments, attempts: manifest.attempts,
            nextAttemptAt: now, lastError: manifest.lastError,
            createdAt: Self.milliseconds(rfc3339: manifest.createdAt) ?? now, updatedAt: now)
    }

    /// An RFC 3339 time (with or without fractional seconds) in milliseconds since 1970.
    static func milliseconds(rfc3339 text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970 * 1000) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970 * 1000) }
    }
}
