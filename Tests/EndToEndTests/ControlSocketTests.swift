import Dispatch
import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitDaemonControl
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization
import Testing

/// The daemon's control socket against clients of the same user that are
/// slow or silent on purpose: each connection has a deadline, and
/// connections are served side by side, so `share send --queue` and
/// `share status` still reach the daemon at once.
@Suite("share-daemon: the control socket against slow clients", .serialized)
struct ControlSocketTests {
    /// Connections to the control socket that each send one byte (never a
    /// newline) every `every` until the daemon closes them or ``stop()``.
    final class Tricklers: @unchecked Sendable {
        private let fds: [Int32]
        private let stopped = Mutex(false)
        private let done = DispatchSemaphore(value: 0)
        /// When each connection was found closed by the daemon (nil: still open).
        let closedAfter = Mutex<[Duration?]>([])

        init(count: Int, path: String, every: Duration) throws {
            var connected: [Int32] = []
            for _ in 0..<count {
                guard let fd = UnixDaemonControl.connect(to: path) else {
                    throw FixtureError("nobody listens on \(path)")
                }
                connected.append(fd)
            }
            let fds = connected
            self.fds = fds
            closedAfter.withLock { $0 = Array(repeating: nil, count: count) }
            let start = ContinuousClock.now
            let thread = Thread { [self] in
                defer { done.signal() }
                var byte = UInt8(ascii: "x")
                while !stopped.withLock({ $0 }) {
                    var open = 0
                    for (index, fd) in fds.enumerated() where closedAfter.withLock({ $0[index] }) == nil {
                        // A closed peer: the write fails (no SIGPIPE), or the socket reads its end.
                        var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        let ended = poll(&probe, 1, 0) == 1 || send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) != 1
                        if ended {
                            closedAfter.withLock { $0[index] = ContinuousClock.now - start }
                        } else {
                            open += 1
                        }
                    }
                    if open == 0 { return }
                    // The pace of the attack itself, not a synchronisation.
                    Thread.sleep(forTimeInterval: Double(every.components.attoseconds) / 1e18)
                }
            }
            thread.start()
        }

        /// Waits until every connection was closed by the daemon, at most `limit`.
        func waitUntilAllClosed(limit: Duration) -> Bool {
            let ended = done.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds * 1000))) == .success
            if ended { done.signal() }  // for stop()
            return ended
        }

        func stop() {
            stopped.withLock { $0 = true }
            done.wait()
            for fd in fds { close(fd) }
        }
    }

    @Test("twenty clients trickling a byte every 200 ms: share send --queue still finds the daemon at once")
    func slowClientsDoNotBlockWake() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // An interval far beyond the test: only the wake-up can make the pass.
        let daemon = try fixture.startDaemon(["--interval", "3600"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let path = fixture.sandbox.assembly.daemonSocketPath
        let tricklers = try Tricklers(count: 20, path: path, every: .milliseconds(200))
        defer { tricklers.stop() }

        let started = ContinuousClock.now
        let queued = try fixture.share(["send", "--text", "past the slow clients", "--to", "thread:t1", "--queue"])
        let took = ContinuousClock.now - started
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(!queued.stderr.contains("not running") && !queued.stdout.contains("not running"), "\(queued.stderr)")
        let sent = daemon.waitForLine(limit: .seconds(30)) { $0.contains("outbox: sent") }
        #expect(sent != nil, "the wake-up did not reach the daemon")
        let status = try fixture.share(["status"])
        #expect(status.stdout.contains("daemon: running (pid"), "\(status.stdout)")
        print("share send --queue beside 20 trickling clients took \(took)")
    }

    @Test("a silent or trickling client is closed after --control-timeout; bytes do not extend it")
    func deadlineClosesSlowClients() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let daemon = try fixture.startDaemon(["--interval", "3600", "--control-timeout", "0.5"])
        defer {
            daemon.kill(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        let path = fixture.sandbox.assembly.daemonSocketPath
        let silent = try #require(UnixDaemonControl.connect(to: path))
        defer { close(silent) }
        let tricklers = try Tricklers(count: 3, path: path, every: .milliseconds(100))
        defer { tricklers.stop() }

        // The silent one: the daemon closes it (end of file), within a generous bound.
        var probe = pollfd(fd: silent, events: Int16(POLLIN), revents: 0)
        #expect(poll(&probe, 1, 20_000) == 1, "the silent connection is still open after 20 s")
        var byte: UInt8 = 0
        #expect(recv(silent, &byte, 1, 0) == 0, "the daemon answered a connection that sent nothing")
        #expect(tricklers.waitUntilAllClosed(limit: .seconds(20)), "a trickling connection is still open after 20 s")
        for closed in tricklers.closedAfter.withLock({ $0 }) {
            #expect(closed.map { $0 >= .milliseconds(400) } == true, "closed after \(String(describing: closed))")
        }
        // The daemon still answers.
        #expect((try? UnixDaemonControl(path: path).status().get()) != nil)
    }
}
