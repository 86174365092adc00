import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// Turns libcurl's frequent transfer-info calls into a few monotonic
/// ``ShareKitHTTPInterface/HTTPTransferProgress`` reports: one per 64 KiB or 100 ms
/// of progress, one when the body is all written, one when the response
/// has arrived.
struct ProgressReporter {
    /// Report at least this often in bytes while the body moves.
    static let byteStep: UInt64 = 64 * 1024
    /// Or after this long, when fewer bytes moved.
    static let timeStep: Duration = .milliseconds(100)

    private let callback: (@Sendable (HTTPTransferProgress) -> Void)?
    private let total: UInt64
    private var reportedSent: UInt64 = 0
    private var reportedAt = ContinuousClock.now
    private var started = false

    init(callback: (@Sendable (HTTPTransferProgress) -> Void)?, total: UInt64) {
        self.callback = callback
        self.total = total
    }

    /// Whether anyone listens; without a listener libcurl's progress calls
    /// are only used for cancellation.
    var isEnabled: Bool { callback != nil }

    /// libcurl wrote `bytes` of the body in this attempt (it restarts from 0
    /// after a rewind; the report then holds until the attempt passes it).
    /// - Parameter bytes: body bytes written so far in this attempt.
    mutating func sent(_ bytes: UInt64) {
        guard let callback else { return }
        let sent = min(bytes, total)
        if !started {
            // A first report at 0, so a listener knows the total before any byte moves.
            started = true
            callback(HTTPTransferProgress(bytesSent: 0, bytesCompleted: 0, totalBytes: total))
        }
        guard sent > reportedSent else { return }
        let now = ContinuousClock.now
        guard sent == total || sent - reportedSent >= Self.byteStep || now - reportedAt >= Self.timeStep else { return }
        reportedSent = sent
        reportedAt = now
        callback(HTTPTransferProgress(bytesSent: sent, bytesCompleted: 0, totalBytes: total))
    }

    /// The response has arrived: the request is finished with its body.
    /// - Parameter bytes: body bytes written in the final attempt.
    mutating func completed(sent bytes: UInt64) {
        guard let callback else { return }
        reportedSent = max(reportedSent, min(bytes, total))
        callback(HTTPTransferProgress(bytesSent: reportedSent, bytesCompleted: total, totalBytes: total))
    }
}
