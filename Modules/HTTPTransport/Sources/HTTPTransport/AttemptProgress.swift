import ShareKitHTTPInterface
import ShareKitHTTPTypes
import Synchronization

/// Keeps a caller's progress monotonic across the attempts of one signed
/// request: a repetition starts sending from byte 0 again, and an attempt
/// that is answered with a nonce challenge has not finished with the body.
/// Only the request's final response reports bytes completed.
final class AttemptProgress: Sendable {
    private let forward: @Sendable (HTTPTransferProgress) -> Void
    private let latest = Mutex<HTTPTransferProgress?>(nil)

    /// - Parameter forward: the caller's progress function.
    init(_ forward: @escaping @Sendable (HTTPTransferProgress) -> Void) {
        self.forward = forward
    }

    /// An attempt's report: forwarded as bytes sent, never lower than before.
    /// - Parameter progress: the inner client's report.
    func attemptReported(_ progress: HTTPTransferProgress) {
        let report = latest.withLock { latest -> HTTPTransferProgress? in
            let sent = max(latest?.bytesSent ?? 0, progress.bytesSent)
            if let latest, sent == latest.bytesSent { return nil }
            let next = HTTPTransferProgress(bytesSent: sent, bytesCompleted: 0, totalBytes: progress.totalBytes)
            latest = next
            return next
        }
        if let report { forward(report) }
    }

    /// The final response arrived: the request is finished with its body.
    func finished() {
        let report = latest.withLock { latest -> HTTPTransferProgress? in
            guard let current = latest else { return nil }
            let done = HTTPTransferProgress(
                bytesSent: current.bytesSent, bytesCompleted: current.totalBytes, totalBytes: current.totalBytes)
            latest = done
            return done
        }
        if let report { forward(report) }
    }
}
