import HTTPInterface
import Synchronization
import UploadsInterface

/// Why a run stopped before it finished.
enum StopReason: Sendable {
    /// The caller cancelled (handle or task).
    case cancelled
    /// The time budget ran out.
    case budget
}

/// The state of one `upload` call shared with the callbacks that may stop it
/// (the caller's cancellation handle, task cancellation, the budget timer)
/// and with the transfer's progress callback.
final class UploadRun: Sendable {
    private struct State {
        var stop: StopReason?
        var acknowledged: Int64 = 0
        var reported = UploadProgress(acknowledgedBytes: -1, totalBytes: 0)
    }

    /// Cancels the requests of this run whenever it stops.
    let cancellation = HTTPCancellation()
    let total: Int64
    private let state = Mutex(State())
    private let progress: (@Sendable (UploadProgress) -> Void)?

    init(total: Int64, progress: (@Sendable (UploadProgress) -> Void)?) {
        self.total = total
        self.progress = progress
    }

    /// Stops the run (the first reason wins) and cancels its request in flight.
    func stop(_ reason: StopReason) {
        state.withLock { if $0.stop == nil { $0.stop = reason } }
        cancellation.cancel()
    }

    /// Why the run stopped, if it did.
    var stopReason: StopReason? { state.withLock { $0.stop } }

    /// Sets the acknowledged bytes (parts the server has) and reports.
    func acknowledge(_ bytes: Int64) {
        report { state in
            state.acknowledged = max(state.acknowledged, bytes)
            return UploadProgress(acknowledgedBytes: state.acknowledged, totalBytes: total)
        }
    }

    /// Reports bytes of the part in flight.
    func inFlight(_ bytes: Int64) {
        report { state in
            UploadProgress(acknowledgedBytes: state.acknowledged, inFlightBytes: bytes, totalBytes: total)
        }
    }

    private func report(_ update: (inout State) -> UploadProgress) {
        guard let progress else { return }
        let next = state.withLock { state -> UploadProgress? in
            let value = update(&state)
            guard value != state.reported else { return nil }
            state.reported = value
            return value
        }
        if let next { progress(next) }
    }
}
