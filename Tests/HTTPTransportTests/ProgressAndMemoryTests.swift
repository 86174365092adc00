import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization
import Testing

/// Progress reports, and memory that stays flat however large the file.
@Suite("CurlHTTPClient: progress and memory")
struct ProgressAndMemoryTests {
    @Test("progress: bytes sent and completed never go back, and the last report is the whole length")
    func progress() async throws {
        let length = 8 << 20
        let file = try TestFile(size: length + 4096)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let log = ProgressLog()

        let response = try await client.send(
            HTTPClientRequest(
                method: .put, url: server.url("/sink"),
                body: .file(HTTPFileRegion(path: file.path, offset: 4096, length: UInt64(length)))),
            options: HTTPRequestOptions(progress: log.callback))
        #expect(response.status == 200)
        #expect(log.problem(total: UInt64(length)) == nil, "\(log.problem(total: UInt64(length)) ?? "")")
        let reports = log.all
        #expect(reports.first == HTTPTransferProgress(bytesSent: 0, bytesCompleted: 0, totalBytes: UInt64(length)))
        #expect(reports.count >= 4, "a few reports while 8 MiB move, got \(reports.count)")
        // Bytes completed stay 0 until the response has arrived.
        #expect(reports.dropLast().allSatisfy { $0.bytesCompleted == 0 })
    }

    @Test("a 256 MiB file region uploads with flat memory: the client never holds the file")
    func largeUploadFlatMemory() async throws {
        let length = 256 << 20
        let file = try TestFile(size: length)
        defer { file.remove() }
        let expected = try file.sha256()
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        // Warm up: the first request loads libcurl's TLS and HTTP/2 code.
        _ = try await client.send(HTTPClientRequest(url: server.url("/hello")))

        let before = ProcessMemory.residentBytes
        let canResetPeak = ProcessMemory.resetPeak()
        let peakDuringUpload = Atomic<Int>(0)
        let (response, duration) = try await elapsed {
            try await client.send(
                HTTPClientRequest(
                    method: .put, url: server.url("/sink"),
                    body: .file(HTTPFileRegion(path: file.path, length: UInt64(length)))),
                options: HTTPRequestOptions(progress: { progress in
                    // Sample now and then (every 16 MiB), not at every report.
                    if progress.bytesSent % (16 << 20) < 64 << 10 {
                        peakDuringUpload.max(ProcessMemory.residentBytes, ordering: .relaxed)
                    }
                }))
        }
        #expect(response.text == "\(length) \(expected)")
        let sampledGrowth = peakDuringUpload.load(ordering: .relaxed) - before
        // Generous (half the file): other suites run in this process at the
        // same time and count too. A client that loaded the file, or kept
        // what it sent, would grow by at least 256 MiB.
        let bound = 128 << 20
        #expect(sampledGrowth < bound, "resident size grew by \(sampledGrowth >> 20) MiB during the upload")
        if canResetPeak {
            let peakGrowth = ProcessMemory.peakResidentBytes - before
            #expect(peakGrowth < bound, "peak resident size (VmHWM) grew by \(peakGrowth >> 20) MiB")
        }
        print(
            "256 MiB upload: \(duration), resident before \(before >> 20) MiB, peak growth "
                + "\((ProcessMemory.peakResidentBytes - before) >> 20) MiB")
    }
}
