import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting

/// A MicroHTTPServer serving ``TestRoutes`` on 127.0.0.1 and a free port, in
/// the test process, with its own upload directory.
final class TestServer: Sendable {
    let server: MicroHTTPServer
    let port: Int
    let controls: TestControls
    let log: LogCollector
    let directory: TemporaryDirectory

    /// Starts a server.
    /// - Parameter configure: changes to the default test configuration.
    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory(prefix: "httpd-test")
        controls = TestControls(uploadDirectory: directory.path)
        log = LogCollector()
        var configuration = HTTPServerConfiguration(idleTimeout: .seconds(30), requestLog: log.hook)
        configure(&configuration)
        server = MicroHTTPServer(handler: TestRoutes(controls: controls), configuration: configuration)
        port = try server.start(host: "127.0.0.1", port: 0)
    }

    /// `http://127.0.0.1:PORT` followed by a path.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops the server and removes its directory.
    func stop() {
        server.stop(gracePeriod: .seconds(5))
        directory.remove()
    }
}
