import ShareKitIntakeInterface
import Synchronization

/// What every step of one item's load needs: who it is (for errors), its
/// deadline, the size limit, progress and cancellation.
struct LoadContext: Sendable {
    /// The item's position in the sources.
    let index: Int
    /// How errors name the item (what the person typed).
    let item: String
    /// When the load must have finished.
    let deadline: ContinuousClock.Instant
    /// The load's timeout, for the error message.
    let timeout: Duration
    /// `file_max_upload_bytes`, when known.
    let limit: Int64?
    /// Copy progress.
    let progress: (@Sendable (IntakeProgress) -> Void)?
    /// Set when the calling task is cancelled.
    let cancellation: CancellationFlag

    /// Throws when the deadline has passed or the task was cancelled.
    /// - Throws: ``IntakeError/deadlineExceeded(item:seconds:)``, or
    ///   ``IntakeError/unreadable(item:reason:)`` on cancellation.
    func checkTime() throws(IntakeError) {
        if cancellation.isSet { throw .unreadable(item: item, reason: "cancelled") }
        if ContinuousClock.now >= deadline { throw deadlineExceeded }
    }

    var deadlineExceeded: IntakeError {
        let parts = timeout.components
        return .deadlineExceeded(item: item, seconds: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    /// How long a wait may last before time and cancellation are checked
    /// again: the time left, at most 200 ms, at least 1 ms.
    var pollSliceMilliseconds: Int32 {
        let left = ContinuousClock.now.duration(to: deadline).components
        let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
        return Int32(max(1, min(200, milliseconds)))
    }

    /// Refuses a copy that grew over the limit while it was read.
    /// - Throws: ``IntakeError/tooLarge(item:size:limit:)``.
    func checkSize(_ size: Int64) throws(IntakeError) {
        if let limit, size > limit { throw .tooLarge(item: item, size: size, limit: limit) }
    }

    func report(copied: Int64, total: Int64?) {
        progress?(IntakeProgress(index: index, copiedBytes: copied, totalBytes: total))
    }
}

/// A flag the cancellation handler sets and the blocking copy polls.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
