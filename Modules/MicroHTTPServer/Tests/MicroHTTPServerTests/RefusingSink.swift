import Dispatch
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// A sink that refuses the body at its first chunk, as a sink does whose
/// digest or size check fails.
final class RefusingSink: HTTPBodySink {
    private let controls: TestControls

    init(controls: TestControls) { self.controls = controls }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        throw HTTPProblem(status: .unprocessableContent, code: "digest_mismatch", title: "Digest mismatch")
    }

    func finish() throws -> HTTPResponse {
        .text(.ok, "should not happen")
    }

    func abort(_ reason: HTTPBodyAbortReason) {
        controls.abortReasons.withLock { $0.append(reason) }
        controls.sinkAborted.signal()
    }
}
