import AppSupport
import ClientAssembly
import DeliveryInterface
import HTTPInterface
import MessagesInterface
import ServerAPIInterface
import ShareCore
import ShareInboxInterface
import Synchronization
import UploadsInterface

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

    /// The last write (Ctrl-C's, or a refusal's removal): once a write in
    /// progress is done, `body` gets the entry as last written, and no
    /// write runs after it.
    /// - Returns: false when another last write came first (`body` did not run).
    @discardableResult
    func close(_ body: (InboxEntry) -> Void) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.closed = true
            body(state.entry)
            return true
        }
    }
}

/// A locked inbox entry as the delivery engine keeps it: completed uploads,
/// attempts and the last error go into its manifest; a sent or refused
/// entry leaves the inbox, one that cannot be read as it was written is
/// quarantined, and a kept one waits for share-daemon (after its undo
/// window when the person interrupted). The writes are best effort: the
/// outcome is told whatever the disk says.
final class InboxEntryKeeper: DeliveryKeeping {
    typealias Failure = Never

    private let inbox: any ShareInboxStoring
    private let lock: any InboxEntryLock
    private let undoWindow: UndoWindow
    /// The entry as last written (the engine reports uploads from the sender's task).
    private let current: Mutex<InboxEntry>

    /// - Parameters:
    ///   - inbox: the share inbox.
    ///   - entry: the entry, locked by `lock`.
    ///   - lock: the entry's lock, held by this process.
    ///   - undoWindow: how long a share kept after Ctrl-C waits.
    init(inbox: any ShareInboxStoring, entry: InboxEntry, lock: any InboxEntryLock, undoWindow: UndoWindow) {
        self.inbox = inbox
        self.lock = lock
        self.undoWindow = undoWindow
        current = Mutex(entry)
    }

    var place: DeliveryPlace { .inboxEntry }

    func share() -> KeptShare {
        Self.outgoingShare(from: current.withLock { $0 })
    }

    func uploaded(index: Int, uploadID: String) {
        // Durable before the message is created: a later attempt
        // (this process or the daemon) must attach the same upload.
        current.withLock { entry in
            var manifest = entry.manifest
            manifest.attachments[index].completedUploadID = uploadID
            if let updated = try? inbox.update(entry, manifest: manifest, lock: lock) { entry = updated }
        }
    }

    func sent(_ message: SentMessage) {
        try? inbox.markProcessed(latest, lock: lock)
    }

    func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) -> Int64? {
        let latest = self.latest
        var manifest = latest.manifest.countingAttempt()
        manifest.lastError = reason.description
        // A message asked for and not answered may be on the server.
        manifest.messageRequested = manifest.messageRequested || messageRequested
        manifest.notBefore = nil
        if interrupted { manifest = undoWindow.starting(on: manifest) }
        _ = try? inbox.update(latest, manifest: manifest, lock: lock)
        return nil
    }

    func refuse(_ refusal: DeliveryRefusal) -> DeliveryPlace? {
        if refusal.stage == .keptShare {
            _ = try? inbox.quarantine(id: latest.id, reason: refusal.message)
            return .quarantine
        }
        try? inbox.markProcessed(latest, lock: lock)
        return nil
    }

    func cancelled(keep: Bool, mayBeOnServer: Bool) -> Bool {
        let latest = self.latest
        if mayBeOnServer {
            var manifest = undoWindow.starting(on: latest.manifest).countingAttempt()
            manifest.lastError = "interrupted before the server answered the message"
            manifest.messageRequested = true
            _ = try? inbox.update(latest, manifest: manifest, lock: lock)
            return true
        }
        if !keep {
            try? inbox.markProcessed(latest, lock: lock)
            return false
        }
        // Kept, but not sent before the person had the undo window to take it back.
        _ = try? inbox.update(latest, manifest: undoWindow.starting(on: latest.manifest), lock: lock)
        return true
    }

    private var latest: InboxEntry { current.withLock { $0 } }

    /// The share an entry describes, with its files as they are on disk now;
    /// an entry that does not match its manifest is refused at the stage of
    /// the kept share (and quarantined).
    static func outgoingShare(from entry: InboxEntry) -> KeptShare {
        func unusable(_ reason: String) -> KeptShare {
            .unusable(DeliveryRefusal(stage: .keptShare, code: "entry_unusable", message: reason))
        }
        let manifest = entry.manifest
        guard let id = try? UUIDv7(string: manifest.clientMsgID) else {
            return unusable("client_msg_id \(manifest.clientMsgID) is not a UUIDv7")
        }
        var sources: [UploadSource] = []
        var completed: [Int: String] = [:]
        for (index, attachment) in manifest.attachments.enumerated() {
            do {
                let source = try ClientAssembly.uploadSource(
                    path: entry.path(of: attachment), fileName: attachment.fileName,
                    contentType: attachment.contentType)
                guard source.size == attachment.size else {
                    return unusable("\(attachment.file) has \(source.size) bytes, the manifest says \(attachment.size)")
                }
                sources.append(source)
            } catch .failed(.fileChanged(_, let why)) {
                // The words manifests and `share inbox list` have always shown for such a file.
                return unusable("\(attachment.file): the file changed: \(why)")
            } catch {
                return unusable("\(attachment.file): \(error)")
            }
            if let done = attachment.completedUploadID { completed[index] = done }
        }
        return .readable(
            OutgoingShare(
                clientMsgID: id, target: manifest.target, text: manifest.comment, attachments: sources,
                title: manifest.title, completedUploadIDs: completed))
    }
}
