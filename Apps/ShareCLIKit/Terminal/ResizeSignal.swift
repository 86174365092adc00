import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the picker that its terminal window changed size (SIGWINCH).
///
/// A handler of its own writes a byte into a pipe, and a thread of its own
/// reads the pipe and calls whoever watches. ``watch(_:)`` installs the
/// handler in one `sigaction` before it returns, so a window resized the
/// moment the picker's first frame appears is never missed. (A dispatch
/// signal source registers its handler and `signalfd` later, on
/// libdispatch's manager thread; a SIGWINCH in between met the ignored
/// disposition and was dropped, and the picker kept drawing at the old
/// width until the next key. On a loaded machine that window was long
/// enough to lose a resize sent right after the first frame.)
enum ResizeSignal {
    /// Whether the handler and the reading thread exist, and who is told.
    private static let state = Mutex<(installed: Bool, listener: (@Sendable () -> Void)?)>((false, nil))

    /// Calls `resized` (on the signal's own thread) each time the window
    /// changes size, until ``unwatch()``; one watcher at a time.
    static func watch(_ resized: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.listener = resized
            guard !state.installed else { return }
            state.installed = true
            var ends: [Int32] = [-1, -1]
            // Without a pipe the picker still works; it follows a resize at
            // its next redraw instead (every key redraws).
            guard pipe(&ends) == 0 else { return }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // Many resizes at once must not block the handler on a full pipe.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            resizePipe = (ends[0], ends[1])
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                let saved = errno
                var byte: UInt8 = 1
                _ = write(resizePipe.write, &byte, 1)  // async-signal-safe
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(SIGWINCH, &action, nil)
            // A thread of its own: a blocking read must not hold one of the
            // few threads that run the program's tasks. It lives as long as
            // the process (the pipe and the handler stay too: after the
            // picker a resize is read and told to nobody, as ignoring it was).
            let read = ends[0]
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { return }
                    let listener = ResizeSignal.state.withLock { $0.listener }
                    listener?()
                }
            }
        }
    }

    /// Stops telling the watcher; resizes after this are read and dropped.
    static func unwatch() {
        state.withLock { $0.listener = nil }
    }
}

/// The pipe between the SIGWINCH handler and the reading thread (set once,
/// under ``ResizeSignal``'s lock, before the handler is installed; read by
/// the handler, which can capture nothing).
nonisolated(unsafe) private var resizePipe: (read: Int32, write: Int32) = (-1, -1)
