import ClientAssembly
import HTTPInterface
import MessagesInterface
import ShareCore
import ShareInboxInterface
import Synchronization
import UploadsInterface

/// What became of one attempt to send an inbox entry.
enum DeliveryOutcome: Sendable {
    /// Delivered (or answered as a replay of an earlier delivery); the entry is gone.
    case sent(SentMessage)
    /// Not sent for now; the entry stays in the inbox, unlocked, for the daemon.
    case kept(RetryReason)
    /// Refused for good; the entry was removed.
    case rejected(code: String, message: String)
    /// Interrupted; `kept` says whether the entry stayed in the inbox.
    case cancelled(kept: Bool)
    /// The entry could not be used (its files are gone or changed) and was quarantined.
    case quarantined(reason: String)
}

/// What `--on-cancel` asked for when the person interrupts a send.
enum CancelPolicy: String, Sendable {
    /// Leave the share in the inbox for the daemon (the default: nothing is lost).
    case keep
    /// Remove the share: the person changed their mind.
    case remove
}

/// Sends one locked inbox entry with the CLI's child session, keeping the
/// entry's manifest in step (completed uploads, attempts, last error), and
/// ends the entry the way the outcome demands. The lock is released on
/// every path, so the daemon can take a kept entry over at once.
struct EntryDelivery {
    let inbox: any ShareInboxStoring
    let sender: any ShareSending
    let progress: ProgressBar
    let cancellation: HTTPCancellation
    let onCancel: CancelPolicy
    /// Says each step (`--verbose`).
    var step: @Sendable (String) -> Void = { _ in }

    /// Sends the entry; never throws: every failure is an outcome.
    func deliver(_ entry: InboxEntry, lock: any InboxEntryLock) async -> DeliveryOutcome {
        defer {
            progress.finish()
            lock.release()
        }
        let share: OutgoingShare
        switch Self.outgoingShare(from: entry) {
        case .success(let value): share = value
        case .failure(let problem): return quarantine(entry, reason: problem.reason)
        }
        let current = Mutex(entry)
        let started = Mutex(Set<Int>())
        let step = self.step
        let updater: @Sendable (SendProgress) -> Void = { event in
            switch event {
            case .uploading(let index, let count, let value):
                if started.withLock({ $0.insert(index).inserted }) {
                    step("uploading \(share.attachments[index].fileName) (\(value.totalBytes) bytes)")
                }
                let name = share.attachments[index].fileName
                let label = count > 1 ? "\(index + 1)/\(count) \(name)" : name
                progress.update(label: label, done: value.acknowledgedBytes, total: value.totalBytes)
            case .uploaded(let index, let uploadID):
                progress.finish()
                step("\(share.attachments[index].fileName) uploaded as \(uploadID)")
                // Durable before the message is created: a later attempt
                // (this process or the daemon) must attach the same upload.
                current.withLock { entry in
                    var manifest = entry.manifest
                    manifest.attachments[index].completedUploadID = uploadID
                    if let updated = try? inbox.update(entry, manifest: manifest, lock: lock) { entry = updated }
                }
            case .creatingMessage:
                progress.finish()
                step("creating the message")
            }
        }
        do {
            let sent = try await sender.send(share, progress: updater, cancellation: cancellation)
            try? inbox.markProcessed(current.withLock { $0 }, lock: lock)
            return .sent(sent)
        } catch {
            let latest = current.withLock { $0 }
            switch error {
            case .retryable(let reason):
                var manifest = latest.manifest
                manifest.attempts += 1
                manifest.lastError = reason.description
                _ = try? inbox.update(latest, manifest: manifest, lock: lock)
                return .kept(reason)
            case .rejected(let code, let message):
                try? inbox.markProcessed(latest, lock: lock)
                return .rejected(code: code, message: message)
            case .cancelled:
                if onCancel == .remove {
                    try? inbox.markProcessed(latest, lock: lock)
                    return .cancelled(kept: false)
                }
                return .cancelled(kept: true)
            }
        }
    }

    private func quarantine(_ entry: InboxEntry, reason: String) -> DeliveryOutcome {
        _ = try? inbox.quarantine(id: entry.id, reason: reason)
        return .quarantined(reason: reason)
    }

    /// The share an entry describes, with its files as they are on disk now.
    static func outgoingShare(from entry: InboxEntry) -> Result<OutgoingShare, EntryProblem> {
        let manifest = entry.manifest
        guard let id = try? UUIDv7(string: manifest.clientMsgID) else {
            return .failure(EntryProblem(reason: "client_msg_id \(manifest.clientMsgID) is not a UUIDv7"))
        }
        var sources: [UploadSource] = []
        var completed: [Int: String] = [:]
        for (index, attachment) in manifest.attachments.enumerated() {
            do {
                let source = try ClientAssembly.uploadSource(
                    path: entry.path(of: attachment), fileName: attachment.fileName,
                    contentType: attachment.contentType)
                guard source.size == attachment.size else {
                    return .failure(
                        EntryProblem(
                            reason: "\(attachment.file) has \(source.size) bytes, the manifest says \(attachment.size)")
                    )
                }
                sources.append(source)
            } catch {
                return .failure(EntryProblem(reason: "\(attachment.file): \(error)"))
            }
            if let done = attachment.completedUploadID { completed[index] = done }
        }
        return .success(
            OutgoingShare(
                clientMsgID: id, target: manifest.target, text: manifest.comment, attachments: sources,
                title: manifest.title, completedUploadIDs: completed))
    }
}

/// Why an entry's files cannot be sent as its manifest describes them.
struct EntryProblem: Error {
    let reason: String
}
