import ShareKitUploadsInterface
import Synchronization
import Testing

@testable import ShareKitUploads

/// The progress accounting of one upload run with several parts in flight:
/// acknowledged bytes only grow, the bytes of every part under way add up,
/// and neither passes the file's size when a lost part is sent again.
@Suite("uploads: progress with parts in flight")
struct UploadRunTests {
    /// Runs `steps` on a run over a 100-byte file and returns what it reported.
    private func reports(_ steps: (UploadRun) -> Void) -> [UploadProgress] {
        let seen = Mutex<[UploadProgress]>([])
        let run = UploadRun(total: 100, progress: { report in seen.withLock { $0.append(report) } })
        steps(run)
        return seen.withLock { $0 }
    }

    private func progress(_ acknowledged: Int64, _ inFlight: Int64) -> UploadProgress {
        UploadProgress(acknowledgedBytes: acknowledged, inFlightBytes: inFlight, totalBytes: 100)
    }

    @Test("bytes of two parts in flight add up; an acknowledged or failed part leaves the sum")
    func partsAddUp() {
        let seen = reports { run in
            run.inFlight(part: 1, bytes: 30)
            run.inFlight(part: 2, bytes: 20)
            run.acknowledgePart(1, length: 40)
            run.dropInFlight(part: 2)
            run.acknowledge(40)  // getUpload: nothing new, nothing reported
            run.inFlight(part: 2, bytes: 5)
            run.acknowledgePart(2, length: 40)
            run.acknowledgePart(3, length: 20)
        }
        #expect(
            seen == [
                progress(0, 30), progress(0, 50), progress(40, 20), progress(40, 0), progress(40, 5),
                progress(80, 0), progress(100, 0),
            ])
    }

    @Test("a part sent again after the server lost it never takes the figures past the file")
    func resentPartCapped() {
        let seen = reports { run in
            run.acknowledgePart(1, length: 60)
            run.acknowledgePart(2, length: 40)
            // Completion found part 2 damaged: it goes again, counted once already.
            run.inFlight(part: 2, bytes: 30)
            run.acknowledgePart(2, length: 40)
            run.acknowledge(100)
        }
        #expect(seen == [progress(60, 0), progress(100, 0)], "nothing past 100, nothing reported twice")
    }
}
