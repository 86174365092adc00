import Dispatch
import Foundation
import ShareKitCryptoInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import Synchronization

/// A body sink that hashes what arrives (SHA-256) and keeps nothing else,
/// so a test can upload hundreds of MiB and compare digests. Optional
/// behaviours: sleep after each chunk (a slow server), stall after the first
/// chunk until released, refuse after a number of bytes (the engine then
/// cuts the connection), or decide the response itself at the end.
final class HashingSink: HTTPBodySink {
    enum Behaviour {
        case plain
        case delayPerChunk(milliseconds: Int)
        case stallAfterFirstChunk
        case cutAfter(bytes: Int)
    }

    private let path: String
    private let contentLength: String?
    private let state: ServerState
    private let behaviour: Behaviour
    private var hasher: any SHA256Hasher
    private var bytes = 0
    private let respond: ((ServerState.ReceivedBody) -> HTTPResponse)?

    /// - Parameters:
    ///   - head: the request's head.
    ///   - state: where to record the body.
    ///   - behaviour: how to behave.
    ///   - respond: makes the response from what arrived; nil for `bytes sha256` as text.
    init(
        head: HTTPRequestHead, state: ServerState, behaviour: Behaviour = .plain,
        respond: ((ServerState.ReceivedBody) -> HTTPResponse)? = nil
    ) throws {
        path = head.path
        contentLength = head.headers["Content-Length"]
        self.state = state
        self.behaviour = behaviour
        self.respond = respond
        hasher = try OpenSSLCryptoProvider().makeSHA256Hasher()
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        let before = bytes
        bytes += chunk.count
        hasher.update(chunk)
        switch behaviour {
        case .plain:
            break
        case .delayPerChunk(let milliseconds):
            usleep(UInt32(milliseconds * 1000))
        case .stallAfterFirstChunk:
            if before == 0 {
                state.stalledSinks.add(1, ordering: .releasing)
                state.waitForRelease(timeout: .seconds(20))
            }
        case .cutAfter(let limit):
            if bytes > limit { throw SinkRefusal() }
        }
    }

    func finish() throws -> HTTPResponse {
        let digest = try hasher.finalize()
        let body = ServerState.ReceivedBody(
            path: path, bytes: bytes, sha256: Hex.string(digest), contentLength: contentLength)
        state.receivedBodies.withLock { $0.append(body) }
        if let respond { return respond(body) }
        return .text(.ok, "\(body.bytes) \(body.sha256)")
    }

    func abort(_ reason: HTTPBodyAbortReason) {
        state.abortReasons.withLock { $0.append(reason) }
    }
}

/// Thrown by a sink told to cut the connection.
struct SinkRefusal: Error {}
