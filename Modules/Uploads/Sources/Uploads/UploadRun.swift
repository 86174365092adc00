import ShareKitHTTPInterface
import ShareKitUploadsInterface
import Synchronization

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
        /// Bytes sent of each part in flight, by part number.
        var inFlight: [Int: Int64] = [:]
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

    /// Raises the acknowledged bytes to at least `bytes` (what getUpload or
    /// completion says the server has) and reports.
    func acknowledge(_ bytes: Int64) {
        report { state in
            state.acknowledged = min(total, max(state.acknowledged, bytes))
        }
    }

    /// Counts one part the server acknowledged (it is no longer in flight) and reports.
    /// - Parameters:
    ///   - part: the part number.
    ///   - length: its length in bytes.
    func acknowledgePart(_ part: Int, length: Int64) {
        report { state in
            state.inFlight[part] = nil
            state.acknowledged = min(total, state.acknowledged + length)
        }
    }

    /// Reports bytes sent of one part in flight (several parts may be).
    /// - Parameters:
    ///   - part: the part number.
    ///   - bytes: how many of its bytes are sent so far.
    func inFlight(part: Int, bytes: Int64) {
        report { state in
            state.inFlight[part] = bytes
        }
    }

    /// Forgets a part's bytes in flight when its request failed.
    /// - Parameter part: the part number.
    func dropInFlight(part: Int) {
        report { state in
            state.inFlight[part] = nil
        }
    }

    /// The progress to report: what the server has, and what is on its
    /// way. A part the server lost and is sent again was counted once
    /// already (acknowledged bytes never decrease), so both are capped by
    /// the file.
    private func snapshot(_ state: State) -> UploadProgress {
        let sending = state.inFlight.values.reduce(0, +)
        return UploadProgress(
            acknowledgedBytes: state.acknowledged, inFlightBytes: max(0, min(sending, total - state.acknowledged)),
            totalBytes: total)
    }

    /// Applies `update` and reports the progress when it changed.
    private func report(_ update: (inout State) -> Void) {
        guard let progress else { return }
        let next = state.withLock { state -> UploadProgress? in
            update(&state)
            let value = snapshot(state)
            guard value != state.reported else { return nil }
            state.reported = value
            return value
        }
        if let next { progress(next) }
    }
}
