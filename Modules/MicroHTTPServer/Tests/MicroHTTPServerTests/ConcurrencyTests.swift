import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Many requests at once, and requests that block.
@Suite("MicroHTTPServer: concurrency")
struct ConcurrencyTests {
    @Test("a blocked long poll does not hold up other requests")
    func longPoll() throws {
        let server = try TestServer()
        defer { server.stop() }
        let port = server.port
        let poll = Background { RawResponse.get(port: port, "/wait") }
        #expect(server.controls.waitEntered.wait(timeout: .now() + 20) == .success)
        for index in 0..<5 {
            let other = try Curl.request(server.url("/items/\(index)"))
            #expect(other.status == 200)
        }
        #expect(!poll.isFinished)
        server.controls.waitRelease.signal()
        let answer = try #require(poll.value())
        #expect(answer.status == 200)
        #expect(answer.text == "woke")
    }

    @Test("a long poll that outlasts the idle timeout still gets its answer: handler time is not idle time")
    func longPollBeyondIdleTimeout() throws {
        let server = try TestServer { $0.idleTimeout = .seconds(1) }
        defer { server.stop() }
        let started = ContinuousClock.now
        let response = try Curl.request(server.url("/events?wait=2500"))
        #expect(ContinuousClock.now - started >= .milliseconds(2500))
        #expect(response.status == 200, "\(response.stderr)")
        #expect(response.text == "no events")
        #expect(server.log.wait(for: 1).first?.outcome == .completed)
    }

    @Test("64 requests over 8 keep-alive connections at once all get their own answer")
    func concurrentRequests() throws {
        let server = try TestServer()
        defer { server.stop() }
        let clients = (0..<8).map { client in
            let urls = (0..<8).map { server.url("/items/\(client * 8 + $0)") }
            return Background { try? Curl.raw(["-w", "%{http_code}\n"] + urls) }
        }
        var seen: [String] = []
        for client in clients {
            let outcome = client.value() ?? nil
            let result = try #require(outcome)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 16)
            #expect(lines.filter { $0 == "200" }.count == 8)
            seen += lines.filter { $0.hasPrefix("item-") }
        }
        #expect(Set(seen) == Set((0..<64).map { "item-\($0)" }))
        #expect(seen.count == 64)
        // curl keeps one connection per process: 8 connections in all.
        #expect(server.controls.clientPorts.withLock { $0.count } == 8)
        #expect(server.log.wait(for: 64).count == 64)
    }
}
