import AppSupport
import ShareCore
import ShareInboxInterface
import Synchronization

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
