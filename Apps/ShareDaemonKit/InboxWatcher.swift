import Foundation
import Glibc
import Synchronization

/// Watches the inbox folder with inotify: an entry appears by a rename into
/// the folder (`IN_MOVED_TO`), and a lock released by a sender that kept
/// the share shows up as `IN_CLOSE_NOWRITE` on the entry's directory handle
/// only indirectly, so the takeover also runs on a timer. Each event calls
/// `onChange` (which only wakes the takeover loop).
final class InboxWatcher: @unchecked Sendable {
    private let fd: Int32
    private let thread: Thread
    private let stopping = StopFlag()

    /// Starts watching, or returns nil when inotify is not available (the
    /// timer then does the work alone).
    init?(directory: String, onChange: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MOVED_TO | IN_CREATE | IN_ATTRIB | IN_DELETE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        let stopping = self.stopping
        thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !stopping.isSet {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 500)
                if ready < 0, errno != EINTR { return }
                guard ready > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { onChange() }
            }
        }
        thread.name = "share-daemon inbox watcher"
        thread.start()
    }

    /// Stops watching (the thread ends within half a second).
    func stop() {
        stopping.set()
    }

    deinit { close(fd) }
}

/// A flag one thread sets and another polls.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
