import Foundation
import ShareKitAppSupport
import ShareKitCore
import Synchronization

/// The daemon's log on standard error, one line per event. When standard
/// error is the journal (`JOURNAL_STREAM` names it), in the form journald
/// understands (`<priority>` prefix, no timestamp: the journal adds its own):
/// `<6>takeover: took over 2 entries`; elsewhere (a terminal, a file) plain
/// lines, warnings and errors marked in words: `takeover: took over 2
/// entries`, `error: session: ...`. Never a token, never a message's text:
/// ids, counts and reasons only.
struct DaemonLog: Sendable {
    enum Level: Int {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    let sink: any OutputSink
    let verbose: Bool
    /// Whether lines carry journald's `<priority>` prefix.
    var journal = false

    /// Whether standard error is the journal's stream: systemd sets
    /// `JOURNAL_STREAM` to `DEVICE:INODE` of that stream, and a process
    /// whose stderr was redirected since has another one.
    /// - Parameter environment: the process environment.
    static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    func log(_ level: Level, _ service: String, _ message: String) {
        if level == .debug, !verbose { return }
        // Messages quote the server and other users (names, problem details):
        // every control and format character is shown escaped, so a line
        // can neither end early nor carry an escape sequence to a terminal.
        let clean = TerminalText.neutralised(message)
        if journal {
            sink.write("<\(level.rawValue)>\(service): \(clean)\n")
            return
        }
        let word: String
        switch level {
        case .error: word = "error: "
        case .warning: word = "warning: "
        default: word = ""
        }
        sink.write("\(word)\(service): \(clean)\n")
    }

    func info(_ service: String, _ message: String) { log(.info, service, message) }
    func warning(_ service: String, _ message: String) { log(.warning, service, message) }
    func error(_ service: String, _ message: String) { log(.error, service, message) }
    func debug(_ service: String, _ message: String) { log(.debug, service, message) }
}

/// A log sink that also keeps the last error line written through it,
/// for the one line the daemon leaves on the terminal when it stops with
/// an error while it logs to a file.
final class ErrorRememberingSink: OutputSink, @unchecked Sendable {
    // @unchecked: `last` is only touched under `lock`.
    private let sink: any OutputSink
    private let lock = NSLock()
    private var last: String?

    init(_ sink: any OutputSink) { self.sink = sink }

    func write(_ text: String) {
        sink.write(text)
        guard text.hasPrefix("error: ") else { return }
        let line = String(text.dropFirst("error: ".count).prefix { $0 != "\n" })
        lock.withLock { last = line }
    }

    /// The last error line (without `error: `), nil when there was none.
    var lastError: String? { lock.withLock { last } }
}

/// A wake-up call for service loops: any number of `wake()` calls while a
/// loop works make one more pass, never a queue of passes. Every loop
/// waiting at the time is woken (the session and event loops both wait on
/// the session's signal after a logout).
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Asks for one more pass of every loop that waits on this signal.
    func wake() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a wake-up or for `timeout`, whichever comes first.
    /// - Returns: false when the task was cancelled (the loop should end).
    func wait(timeout: Duration) async -> Bool {
        if state.withLock({ state in
            defer { state.pending = false }
            return state.pending
        }) {
            return !Task.isCancelled
        }
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        // A dispatch timer, not a task in `Task.sleep`: a cancelled sleep
        // keeps its task and timer allocated until its deadline (up to a
        // minute here), so a daemon woken for every share piled them up in
        // its heap; a cancelled dispatch source is released at once.
        let timer = WaitTimer()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                    return
                }
                // Started once the waiter is registered, so it cannot fire before
                // there is one to wake. A cancelled timer wakes no one (it would
                // cost a pass); one that fires after a wake finds no waiter with its id.
                timer.start(after: Self.dispatchInterval(timeout)) { [weak self] in self?.resume(id) }
            }
        } onCancel: {
            resume(id)
        }
        timer.cancel()
        return !Task.isCancelled
    }

    /// One wait's timer: started at most once, cancelled when the wait ends.
    private final class WaitTimer: @unchecked Sendable {
        // @unchecked: `source` is only touched under `lock`; dispatch
        // sources themselves are thread-safe.
        private let lock = NSLock()
        private var source: (any DispatchSourceTimer)?
        private var cancelled = false

        /// Calls `fire` on a global queue after `interval`, unless cancelled first.
        func start(after interval: DispatchTimeInterval, _ fire: @escaping @Sendable () -> Void) {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + interval)
            // Cancelled once fired too: a one-shot source stays armed, and
            // so allocated, until it is cancelled (which also releases this
            // handler and with it its reference to the source).
            timer.setEventHandler {
                fire()
                timer.cancel()
            }
            let alreadyCancelled = lock.withLock {
                source = timer
                return cancelled
            }
            // The wait can end before its timer starts (a wake from another
            // thread): cancelled before the first resume, it never fires.
            if alreadyCancelled { timer.cancel() }
            timer.resume()
        }

        /// Cancels the timer (releasing it now), or the one started later.
        func cancel() {
            lock.withLock {
                cancelled = true
                source?.cancel()
            }
        }
    }

    /// A wait's timeout for a dispatch timer, in whole nanoseconds (0 for a
    /// negative one, at most a day).
    static func dispatchInterval(_ timeout: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0, attoseconds >= 0 else { return .nanoseconds(0) }
        guard seconds < 86_400 else { return .seconds(86_400) }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Resumes one waiter (its timeout or its cancellation), if it still waits.
    private func resume(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
