import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting

/// A MicroHTTPServer serving ``TestRoutes`` on 127.0.0.1 and a port the
/// system picks, inside the test process; stopped by the test.
final class LoopbackServer: Sendable {
    let server: MicroHTTPServer
    let port: Int
    let state: ServerState
    let scheme: String

    /// Starts a server.
    /// - Parameter configure: changes to the test configuration.
    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        state = ServerState()
        // A refused body is never drained: the connection is cut at once,
        // which is what `/cut` needs (and no other route refuses a body).
        // The head deadline also ends kept-alive connections idle that long:
        // as long as the idle timeout, so a loaded test machine's pauses
        // between requests do not look like the client failing to reuse.
        var configuration = HTTPServerConfiguration(
            requestHeadTimeout: .seconds(30), idleTimeout: .seconds(30), maxDiscardedBodyBytes: 0)
        configure(&configuration)
        scheme = configuration.tls == nil ? "http" : "https"
        server = MicroHTTPServer(handler: TestRoutes(state: state), configuration: configuration)
        port = try server.start(host: "127.0.0.1", port: 0)
    }

    /// `http://127.0.0.1:PORT` followed by a path.
    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// Releases stalled handlers and stops the server.
    func stop() {
        state.releaseAll()
        server.stop(gracePeriod: .seconds(5))
    }
}
