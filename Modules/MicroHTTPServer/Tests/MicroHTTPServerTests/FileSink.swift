import Dispatch
import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// A body sink that writes to a file as chunks arrive (like an upload part),
/// records the largest chunk, and deletes the partial file when aborted.
final class FileSink: HTTPBodySink {
    private let path: String
    private let controls: TestControls
    private var fd: Int32
    private var written = 0
    private var chunks = 0

    init(path: String, controls: TestControls) throws {
        self.path = path
        self.controls = controls
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SocketFailure(errno: errno) }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < chunk.count {
            let count = Glibc.write(fd, chunk.baseAddress! + offset, chunk.count - offset)
            guard count > 0 else { throw SocketFailure(errno: errno) }
            offset += count
        }
        written += chunk.count
        chunks += 1
        controls.largestChunk.max(chunk.count, ordering: .relaxed)
        if chunks == 1 { controls.firstChunk.signal() }
    }

    func finish() throws -> HTTPResponse {
        close(fd)
        fd = -1
        return .text(.ok, "stored \(written) bytes in \(chunks) chunks")
    }

    func abort(_ reason: HTTPBodyAbortReason) {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(path)
        controls.abortReasons.withLock { $0.append(reason) }
        controls.sinkAborted.signal()
    }
}
