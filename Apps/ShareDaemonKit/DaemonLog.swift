import AppSupport
import Foundation
import ShareCore
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
        let timer = Mutex<Task<Void, Never>?>(nil)
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
                // Started once the waiter is registered, so it cannot fire before there is one to wake.
                timer.withLock {
                    $0 = Task { [weak self] in
                        // A cancelled timer must not wake anyone (it would cost a pass).
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        self?.resume(id)
                    }
                }
            }
        } onCancel: {
            resume(id)
        }
        timer.withLock { $0?.cancel() }
        return !Task.isCancelled
    }

    /// Resumes one waiter (its timeout or its cancellation), if it still waits.
    private func resume(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
