import CShareKitMicroHTTPD
import CShareKitMicroHTTPDShim
import Glibc
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

/// A started libmicrohttpd daemon and everything that must outlive it: the
/// callbacks' shared state, the C shim's state, and the C copies of the
/// TLS credentials.
final class RunningDaemon: @unchecked Sendable {
    // @unchecked: the raw pointers are only touched by the server under its
    // lifecycle lock (start, stop), never concurrently.

    /// The daemon.
    let daemon: OpaquePointer
    /// The callbacks' shared state.
    let core: ServerCore
    /// The bound port.
    let port: Int
    private let shimState: UnsafeMutableRawPointer?
    private let cStrings: [UnsafeMutablePointer<CChar>]

    /// Takes ownership of a started daemon.
    /// - Parameters:
    ///   - daemon: the daemon.
    ///   - core: its callbacks' shared state.
    ///   - port: the bound port.
    ///   - shimState: the C shim's state.
    ///   - cStrings: `strdup` copies to free after the daemon stopped.
    init(
        daemon: OpaquePointer, core: ServerCore, port: Int, shimState: UnsafeMutableRawPointer?,
        cStrings: [UnsafeMutablePointer<CChar>]
    ) {
        self.daemon = daemon
        self.core = core
        self.port = port
        self.shimState = shimState
        self.cStrings = cStrings
    }

    /// Stops gracefully (see ``MicroHTTPServer/stop(gracePeriod:)``).
    /// - Parameter gracePeriod: the longest wait for requests in flight.
    func stop(gracePeriod: Duration) {
        core.stopping.store(true, ordering: .relaxed)
        // Stop accepting. libmicrohttpd hands the listening socket back;
        // shutting it down makes the kernel refuse new connections (and
        // those waiting in the backlog) at once instead of leaving them
        // hanging until the daemon is gone. It is closed only after
        // MHD_stop_daemon, as libmicrohttpd asks.
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { _ = shutdown(listener, Int32(SHUT_RDWR)) }
        core.handler.serverWillStop()
        _ = core.inFlight.waitUntilIdle(gracePeriod: gracePeriod)
        core.closingConnections.store(true, ordering: .relaxed)
        // Closes every connection and joins its thread; a handler call still
        // running is waited for (threads cannot be interrupted).
        MHD_stop_daemon(daemon)
        core.connections.stopSweeping()
        if listener >= 0 { close(listener) }
        cmhd_shim_release_state(shimState)
        for string in cStrings {
            // Overwrite the key material before giving the memory back.
            memset(string, 0, strlen(string))
            free(string)
        }
    }
}
