import Foundation
import ShareKitHTTPServerInterface
import ShareKitMicroHTTPServer

/// The benchmark's peer: `PUT /sink` streams the body into a sink that
/// counts and discards it, and answers the count. It runs in a child
/// process, so neither client shares a process (or the measured memory)
/// with it.
enum SinkServer {
    /// Serves on 127.0.0.1 and a free port, prints `listening on PORT`, and
    /// runs until killed.
    static func run() throws {
        let server = MicroHTTPServer(
            handler: SinkRoutes(),
            configuration: HTTPServerConfiguration(maxConnections: 16, connectionMemoryLimit: 256 * 1024))
        let port = try server.start(host: "127.0.0.1", port: 0)
        // Written straight to the descriptor: nothing to flush, nothing buffered.
        let line = Array("listening on \(port)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        while true { pause() }
    }
}

/// `PUT /sink`: discard the body; anything else: 404.
struct SinkRoutes: HTTPRequestHandler {
    func prepare(for head: HTTPRequestHead) throws -> HTTPBodyDisposition {
        guard head.pathSegments == ["sink"] else {
            return .reject(HTTPProblem(status: .notFound, code: "not_found", title: "Not Found").response())
        }
        return .stream(DiscardingSink())
    }

    func respond(to head: HTTPRequestHead, body: [UInt8]) throws -> HTTPResponse {
        .text(.ok, "\(body.count)")
    }
}

/// Counts the bytes of a body and keeps none of them.
final class DiscardingSink: HTTPBodySink {
    private var count = 0

    func write(_ chunk: UnsafeRawBufferPointer) throws { count += chunk.count }

    func finish() throws -> HTTPResponse { .text(.ok, "\(count)") }

    func abort(_ reason: HTTPBodyAbortReason) {}
}
