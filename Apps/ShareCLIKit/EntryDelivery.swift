import AppSupport
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
    /// `mayBeOnServer`: Ctrl-C came after the message was asked for and its
    /// answer did not come within ``DeliveryInterruption/answerWait``; the
    /// entry is kept whatever `--on-cancel` says, for the daemon to finish
    /// through `client_msg_id` idempotency.
    case cancelled(kept: Bool, mayBeOnServer: Bool = false)
    /// The entry could not be used (its files are gone or changed) and was quarantined.
    case quarantined(reason: String)
}

/// What `--on-cancel` asked for when the person interrupts a send.
enum CancelPolicy: String, Sendable {
    /// Leave the share in the inbox for the daemon (the default: nothing is lost).
    case keep
    /// Remove the share: the person changed their mind.
    case remove

    /// The policy an `--on-cancel` value names: `keep`, `remove`, or
    /// `discard`, the name scripts use for `remove` (both stay accepted).
    /// - Parameter value: the option's value.
    init?(option value: String) {
        switch value {
        case "keep": self = .keep
        case "remove", "discard": self = .remove
        default: return nil
        }
    }
}

/// How long a share interrupted with Ctrl-C and kept waits before
/// share-daemon may send it (`--undo-window`): the person's chance to take
/// it back with `share inbox drop`. The end is written into the entry's
/// manifest (`not_before`), so the daemon, another process, honours it.
struct UndoWindow: Sendable, Equatable {
    /// The window in milliseconds (0: none).
    let milliseconds: Int64

    /// The default: thirty seconds.
    static let standard = UndoWindow(milliseconds: 30_000)

    /// `--undo-window SECONDS`: a number from 0 to
    /// ``ShareInboxInterface/InboxManifest/maximumUndoWindowSeconds``; nil gives the default.
    /// - Throws: a usage `ProgramError` for anything else.
    static func parse(_ text: String?) throws -> UndoWindow {
        guard let text else { return .standard }
        let limit = InboxManifest.maximumUndoWindowSeconds
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= Double(limit) else {
            throw ProgramError.usage(localized(.undoWindowRange, ["maximum": limit]))
        }
        return UndoWindow(milliseconds: Int64((seconds * 1000).rounded()))
    }

    /// The window in whole seconds (rounded up), for a person.
    var seconds: Int64 { (milliseconds + 999) / 1000 }

    /// Whether there is a window at all.
    var isOpen: Bool { milliseconds > 0 }

    /// `manifest` with the window starting now: its end as `not_before`
    /// (none for a window of 0).
    func starting(on manifest: InboxManifest) -> InboxManifest {
        var changed = manifest
        changed.notBefore =
            isOpen
            ? RFC3339.string(unixMilliseconds: UnixClock.system.milliseconds() + milliseconds) : nil
        return changed
    }
}

/// The manifest writes of a share between its commit and its send, and
/// Ctrl-C's last word on them: the interrupt runs on another thread than
/// the send, so its write (the undo window) and the send's writes (the
/// target, converted photos) take turns, and none of the send's comes
/// after it. Also remembers the entry as last written.
final class EntryWrites: Sendable {
    private struct State {
        var entry: InboxEntry
        var closed = false
    }

    private let state: Mutex<State>

    /// - Parameter entry: the entry as committed.
    init(_ entry: InboxEntry) {
        state = Mutex(State(entry: entry))
    }

    /// The entry as last written.
    var entry: InboxEntry { state.withLock { $0.entry } }

    /// Runs one write of the entry (it gets the entry as last written and
    /// returns it as written now), unless Ctrl-C has had the last word.
    /// - Returns: the entry as written, or nil after Ctrl-C.
    /// - Throws: what the write throws (the entry is then as before).
    func write(_ body: (InboxEntry) throws(InboxError) -> InboxEntry) throws(InboxError) -> InboxEntry? {
        try state.withLock { (state: inout State) throws(InboxError) -> InboxEntry? in
            guard !state.closed else { return nil }
            state.entry = try body(state.entry)
            return state.entry
        }
    }

    /// Ctrl-C's write, the last: once a write in progress is done, `body`
    /// gets the entry as last written, and no write runs after it.
    func close(_ body: (InboxEntry) -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            body(state.entry)
        }
    }
}

/// Ctrl-C while an entry is sent. Before the message is asked for it
/// cancels at once: an upload is aborted and nothing of the share is on the
/// server. Once createMessage (or createThread) has gone out, the server may
/// store the message whatever the client does; aborting then and removing
/// the share would leave the person told "removed" about a message that
/// is there. So it waits for the answer up to ``answerWait`` (a second
/// Ctrl-C stops waiting at once), then cancels the request; the outcome
/// then decides: sent or refused as the server said, otherwise kept for
/// the daemon, which resolves it by the `client_msg_id` without sending
/// twice.
final class DeliveryInterruption: Sendable {
    /// How long a Ctrl-C after the message was asked for waits for the
    /// server's answer (documented in `share send --help` and the README).
    static let answerWait: Duration = .seconds(5)

    private struct State {
        var messageRequested = false
        var interrupted = false
        var waited = false
        var finished = false
        var timer: Task<Void, Never>?
    }

    /// The handle the send's requests are cancelled with.
    let cancellation = HTTPCancellation()
    private let state = Mutex(State())
    private let waitingNotice: @Sendable () -> Void

    /// - Parameter waitingNotice: says that Ctrl-C waits for the server's
    ///   answer (called at most once, on the signal's queue).
    init(waitingNotice: @escaping @Sendable () -> Void = {}) {
        self.waitingNotice = waitingNotice
    }

    /// The request for the message is about to go out: from now on Ctrl-C waits for its answer.
    func messageRequested() {
        state.withLock { $0.messageRequested = true }
    }

    /// Whether Ctrl-C came after the message was asked for (the outcome
    /// the send ends with is then the only word on what the server holds).
    var interruptedAfterRequest: Bool { state.withLock { $0.waited } }

    /// Whether Ctrl-C came at all.
    var interrupted: Bool { state.withLock { $0.interrupted } }

    /// Whether the request for the message went out (its answer may not have come).
    var messageWasRequested: Bool { state.withLock { $0.messageRequested } }

    /// Ctrl-C: cancel now, or wait for the answer up to ``answerWait``.
    func interrupt() {
        enum Action { case cancelNow, wait }
        let action = state.withLock { state -> Action in
            defer { state.interrupted = true }
            // A second Ctrl-C, or one before the message was asked for.
            if state.interrupted || !state.messageRequested { return .cancelNow }
            state.waited = true
            return .wait
        }
        switch action {
        case .cancelNow:
            cancellation.cancel()
        case .wait:
            waitingNotice()
            let cancellation = self.cancellation
            let timer = Task {
                // A bound on the wait a person asked to end, not synchronisation.
                guard (try? await Task.sleep(for: Self.answerWait)) != nil else { return }
                cancellation.cancel()
            }
            let over = state.withLock { state -> Bool in
                state.timer = timer
                return state.finished
            }
            if over { timer.cancel() }
        }
    }

    /// The send is over: a waiting timer is not needed any more.
    func finish() {
        state.withLock { state in
            state.finished = true
            return state.timer
        }?.cancel()
    }
}

/// Sends one locked inbox entry with the CLI's child session, keeping the
/// entry's manifest in step (completed uploads, attempts, last error), and
/// ends the entry the way the outcome demands. The lock is released on
/// every path, so the daemon can take a kept entry over at once.
struct EntryDelivery {
    let inbox: any ShareInboxStoring
    let sender: any ShareSending
    let progress: ProgressBar
    let interruption: DeliveryInterruption
    let onCancel: CancelPolicy
    /// How long a share kept after Ctrl-C waits before share-daemon may send it.
    var undoWindow = UndoWindow.standard
    /// Says each stage of the share, by its id (`--verbose`).
    var stage: @Sendable (String, ShareStage) -> Void = { _, _ in }

    /// Sends the entry; never throws: every failure is an outcome.
    func deliver(_ entry: InboxEntry, lock: any InboxEntryLock) async -> DeliveryOutcome {
        defer {
            interruption.finish()
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
        let id = entry.id
        let step: @Sendable (ShareStage) -> Void = { [stage] in stage(id, $0) }
        let interruption = self.interruption
        let updater: @Sendable (SendProgress) -> Void = { event in
            switch event {
            case .uploading(let index, let count, let value):
                if started.withLock({ $0.insert(index).inserted }) {
                    step(.uploading(fileName: share.attachments[index].fileName, bytes: value.totalBytes))
                }
                let name = share.attachments[index].fileName
                let label = count > 1 ? "\(index + 1)/\(count) \(name)" : name
                progress.update(label: label, done: value.acknowledgedBytes, total: value.totalBytes)
            case .uploaded(let index, let uploadID):
                progress.finish()
                step(.uploaded(fileName: share.attachments[index].fileName, uploadID: uploadID))
                // Durable before the message is created: a later attempt
                // (this process or the daemon) must attach the same upload.
                current.withLock { entry in
                    var manifest = entry.manifest
                    manifest.attachments[index].completedUploadID = uploadID
                    if let updated = try? inbox.update(entry, manifest: manifest, lock: lock) { entry = updated }
                }
            case .creatingMessage:
                interruption.messageRequested()
                progress.finish()
                step(.creatingMessage)
            }
        }
        do {
            let sent = try await sender.send(share, progress: updater, cancellation: interruption.cancellation)
            try? inbox.markProcessed(current.withLock { $0 }, lock: lock)
            return .sent(sent)
        } catch {
            let latest = current.withLock { $0 }
            // Ctrl-C after the message was asked for, and no answer that
            // says what the server holds: whatever --on-cancel asked, the
            // share stays for the daemon, which asks again with the same
            // client_msg_id and gets the stored message if there is one.
            let unknown = interruption.interruptedAfterRequest
            switch error {
            case .retryable(let reason):
                var manifest = latest.manifest.countingAttempt()
                manifest.lastError = reason.description
                // A message asked for and not answered may be on the server.
                manifest.messageRequested = manifest.messageRequested || interruption.messageWasRequested
                manifest.notBefore = nil
                if unknown { manifest = undoWindow.starting(on: manifest) }
                _ = try? inbox.update(latest, manifest: manifest, lock: lock)
                if unknown { return .cancelled(kept: true, mayBeOnServer: true) }
                return .kept(reason)
            case .rejected(let code, let message):
                try? inbox.markProcessed(latest, lock: lock)
                return .rejected(code: code, message: message)
            case .cancelled:
                if unknown {
                    var manifest = undoWindow.starting(on: latest.manifest).countingAttempt()
                    manifest.lastError = "interrupted before the server answered the message"
                    manifest.messageRequested = true
                    _ = try? inbox.update(latest, manifest: manifest, lock: lock)
                    return .cancelled(kept: true, mayBeOnServer: true)
                }
                if onCancel == .remove {
                    try? inbox.markProcessed(latest, lock: lock)
                    return .cancelled(kept: false)
                }
                // Kept, but not sent before the person had the undo window to take it back.
                _ = try? inbox.update(latest, manifest: undoWindow.starting(on: latest.manifest), lock: lock)
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
