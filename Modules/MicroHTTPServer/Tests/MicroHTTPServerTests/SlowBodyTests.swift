import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Clients that send a complete head and then trickle the body (a byte every
/// few seconds, each byte resetting the idle timeout) must not lock other
/// clients out: the body has a deadline that slow bytes do not extend, and
/// when the server is full, connections of an address holding more than its
/// share are closed to make room.
@Suite("MicroHTTPServer: slow request bodies", .serialized)
struct SlowBodyTests {
    @Test("slow bodies from four addresses hold every connection: a fifth address is served at once")
    func fullOfSlowBodiesMakesRoom() throws {
        // A body deadline far away: the room must come from the share rule.
        let server = try TestServer {
            $0.maxConnections = 8
            $0.maxConnectionsPerAddress = 2
            $0.requestBodyTimeout = .seconds(60)
        }
        defer { server.stop() }
        let attack = try SlowBody(
            port: server.port, count: 8, sources: ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"])
        defer { attack.stop() }
        // Every connection is in its body: the uploads' sinks have their first byte.
        for _ in 0..<8 { #expect(server.controls.firstChunk.wait(timeout: .now() + 20) == .success) }
        let answer = RawExchange.send(
            port: server.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            source: "127.0.0.1", timeout: 10_000)
        #expect(answer.status == 200, "\(answer.status) \(answer.problem ?? [:]) after \(answer.elapsed)")
        // Served at once, not when a body deadline (a minute) frees a
        // connection; the bound leaves room for a loaded machine.
        #expect(answer.elapsed < .seconds(5))
        // The upload closed to make room was aborted (its partial file removed).
        #expect(server.controls.sinkAborted.wait(timeout: .now() + 20) == .success)
    }

    @Test("a body trickled a byte every 300 ms is cut off at the body deadline with a 408 problem")
    func bodyDeadline() throws {
        let server = try TestServer {
            $0.requestBodyTimeout = .seconds(1)
            $0.minimumBodyRate = 1024
        }
        defer { server.stop() }
        let start = ContinuousClock.now
        let socket = try LoopbackSocket(port: server.port, receiveTimeout: 14_000)
        try socket.send("PUT /upload/slow.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\nb")
        // The attack's pacing: each byte would reset an idle timeout.
        let pacing = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pacing"))
        pacing.schedule(deadline: .now() + 0.3, repeating: 0.3)
        pacing.setEventHandler { try? socket.send("b") }
        pacing.resume()
        defer { pacing.cancel() }
        let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
        let elapsed = start.duration(to: .now)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(60)) after \(elapsed)")
        #expect(answer.contains("application/problem+json") && answer.contains("\"code\":\"request_body_timeout\""))
        // The deadline is 1 s plus a byte's worth of rate; the sweep runs
        // every quarter second. The upper bound only tells a cut-off from
        // none at all (the idle timeout would be 30 s).
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(8), "after \(elapsed)")
        #expect(server.controls.sinkAborted.wait(timeout: .now() + 20) == .success)
        #expect(server.controls.abortReasons.withLock { $0 } == [.timedOut])
        #expect(!FileManager.default.fileExists(atPath: server.directory.file("slow.bin")))
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.outcome == .timedOut)
        #expect(record.failure?.contains("body") == true, "\(record)")
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    @Test("a body that keeps the minimum rate is taken whole, however long it takes")
    func bodyAtTheMinimumRate() throws {
        let server = try TestServer {
            $0.requestBodyTimeout = .seconds(1)
            $0.minimumBodyRate = 100
        }
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port)
        let size = 4000
        try socket.send(
            "PUT /upload/steady.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n"
        )
        // 200 bytes every 100 ms: twenty times the minimum rate, for two
        // seconds, twice the slack.
        let sent = DispatchSemaphore(value: 0)
        let pacing = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pacing"))
        let pieces = Atomic<Int>(0)
        pacing.schedule(deadline: .now() + 0.1, repeating: 0.1)
        pacing.setEventHandler {
            let piece = pieces.add(1, ordering: .relaxed).newValue
            guard piece <= size / 200 else { return }
            try? socket.send([UInt8](repeating: 0x73, count: 200))
            if piece == size / 200 { sent.signal() }
        }
        pacing.resume()
        defer { pacing.cancel() }
        #expect(sent.wait(timeout: .now() + 20) == .success)
        let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(60))")
        #expect(answer.contains("stored \(size) bytes"))
    }
}
