import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Request bodies: streamed to a sink, buffered with a limit, rejected,
/// refused by the sink, cut off by the client.
@Suite("MicroHTTPServer: request bodies")
struct BodyTests {
    @Test("a 64 MiB PUT is streamed to a file sink in bounded chunks; the file's SHA-256 matches")
    func largeStreamedUpload() throws {
        try MemoryHeavy.run { try largeStreamedUploadAlone() }
    }

    private func largeStreamedUploadAlone() throws {
        let server = try TestServer()
        defer { server.stop() }
        let source = server.directory.file("source.bin")
        let made = try runProcess("/bin/sh", ["-c", "head -c 67108864 /dev/urandom > '\(source)'"])
        #expect(made.status == 0)
        let peakBefore = Self.peakResidentKiB()

        let response = try Curl.request(server.url("/upload/big.bin"), ["-T", source])
        #expect(
            response.status == 200,
            """
            curl: \(response.stderr) aborts: \(server.controls.abortReasons.withLock { $0 }) \
            log: \(server.log.wait(for: 1).map(\.description))
            """)
        #expect(response.text.hasPrefix("stored 67108864 bytes in "))

        let sums = try runProcess("/usr/bin/sha256sum", [source, server.directory.file("big.bin")])
        let digests = sums.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(digests.count == 2)
        #expect(digests[0] == digests[1] && digests[0].count == 64)
        // Chunks are bounded by the per-connection buffer, not the body.
        let largest = server.controls.largestChunk.load(ordering: .relaxed)
        #expect(largest > 0 && largest <= 64 * 1024, "largest chunk \(largest)")
        // The body never sat in this process's memory: the peak grew far
        // less than 64 MiB (other tests running alongside allocate a little).
        let growth = Self.peakResidentKiB() - peakBefore
        #expect(growth < 32 * 1024, "peak RSS grew by \(growth) KiB")
    }

    @Test("a buffered body over its limit is a 413 problem: before reading when declared, midway when chunked")
    func bufferLimit() throws {
        let server = try TestServer()
        defer { server.stop() }
        let within = try Curl.request(server.url("/small"), ["--data-binary", String(repeating: "a", count: 1024)])
        #expect(within.status == 200)
        #expect(within.text == "got 1024 bytes")

        let big = server.directory.file("big.txt")
        try Data(repeating: 0x62, count: 200_000).write(to: URL(fileURLWithPath: big))
        let declared = try Curl.request(server.url("/small"), ["--data-binary", "@" + big])
        #expect(declared.status == 413)
        #expect(declared.header("content-type") == "application/problem+json")
        let problem = try declared.json()
        #expect(problem["code"] as? String == "body_too_large")
        #expect(problem["status"] as? Int == 413)

        let chunked = try Curl.request(
            server.url("/small"), ["--data-binary", "@" + big, "-H", "Transfer-Encoding: chunked"])
        #expect(chunked.status == 413)
        #expect(try chunked.json()["code"] as? String == "body_too_large")
        // The handler answered only the request within the limit.
        #expect(server.controls.respondCalls.load(ordering: .relaxed) == 1)
    }

    @Test("a rejected request is answered at once, without 100 Continue or reading the body")
    func rejectAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let source = server.directory.file("reject.bin")
        try Data(count: 8 << 20).write(to: URL(fileURLWithPath: source))
        let response = try Curl.request(server.url("/reject"), ["-T", source, "-H", "Expect: 100-continue"])
        #expect(response.status == 403)
        #expect(try response.json()["code"] as? String == "write_forbidden")
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.bodyBytes == 0)
    }

    @Test("a sink that throws gets its problem sent and is aborted with sinkFailed")
    func refusingSink() throws {
        let server = try TestServer()
        defer { server.stop() }
        let body = server.directory.file("refused.txt")
        try Data(repeating: 0x7A, count: 300_000).write(to: URL(fileURLWithPath: body))
        let response = try Curl.request(server.url("/refusing-upload"), ["-X", "PUT", "--data-binary", "@" + body])
        #expect(response.status == 422)
        #expect(try response.json()["code"] as? String == "digest_mismatch")
        #expect(server.controls.sinkAborted.wait(timeout: .now() + 20) == .success)
        #expect(server.controls.abortReasons.withLock { $0 } == [.sinkFailed])
    }

    @Test("a client that disconnects mid-body aborts the sink, which removes the partial file")
    func disconnectMidBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port)
        try socket.send("PUT /upload/partial.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n")
        try socket.send([UInt8](repeating: 0x61, count: 300_000))
        #expect(server.controls.firstChunk.wait(timeout: .now() + 20) == .success)
        #expect(FileManager.default.fileExists(atPath: server.directory.file("partial.bin")))
        socket.close()
        #expect(server.controls.sinkAborted.wait(timeout: .now() + 20) == .success)
        #expect(server.controls.abortReasons.withLock { $0 } == [.clientDisconnected])
        #expect(!FileManager.default.fileExists(atPath: server.directory.file("partial.bin")))
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.outcome == .clientDisconnected)
        #expect(record.status == nil)
        #expect(record.bodyBytes >= 1)
        // And the server still serves.
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    /// The process's peak resident set (VmHWM), KiB.
    static func peakResidentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
