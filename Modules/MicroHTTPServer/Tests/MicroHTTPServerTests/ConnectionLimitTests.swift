import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Clients that open connections and trickle their request heads (one byte
/// every 20 s) must not lock other clients out: the per-address limit, the
/// room made by closing the connection that waited longest for its head,
/// the 503 when every connection is busy, and the head deadline.
@Suite("MicroHTTPServer: connection limits under a slow-head attack", .serialized)
struct ConnectionLimitTests {
    @Test("300 trickling connections from one address: another address is answered within a second")
    func perAddressLimit() throws {
        let server = try TestServer()
        defer { server.stop() }
        let attack = try Trickle(port: server.port, count: 300)
        defer { attack.stop() }
        let answer = RawExchange.send(
            port: server.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            source: "127.0.0.2", timeout: 1000)
        #expect(answer.status == 200, "no answer within \(answer.elapsed)")
        #expect(answer.elapsed < .seconds(1))
    }

    @Test("300 trickling connections from 30 addresses against 16 connections: a request is served within a second")
    func totalLimitMakesRoom() throws {
        let server = try TestServer { $0.maxConnections = 16 }
        defer { server.stop() }
        let sources = (2...31).map { "127.0.0.\($0)" }
        let attack = try Trickle(port: server.port, count: 300, sources: sources)
        defer { attack.stop() }
        let answer = RawExchange.send(
            port: server.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout: 1000)
        #expect(answer.status == 200, "no answer within \(answer.elapsed)")
        #expect(answer.elapsed < .seconds(1))
    }

    @Test("every connection busy with a request: a new one is answered 503 with Retry-After, a problem")
    func busyAnswers503() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        defer { server.stop() }
        let polls = (0..<2).map { _ in Background { RawResponse.get(port: server.port, "/wait") } }
        for _ in polls { server.controls.waitEntered.wait() }
        let answer = RawExchange.send(
            port: server.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout: 1000)
        for _ in polls { server.controls.waitRelease.signal() }
        #expect(answer.status == 503, "no answer within \(answer.elapsed)")
        #expect(answer.headers["retry-after"] == "1")
        #expect(answer.problem?["code"] as? String == "server_busy")
        #expect(answer.elapsed < .seconds(1))
        for poll in polls { #expect(poll.value()?.status == 200) }
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    @Test("a head trickled a byte every 3 s is cut off at the 10 s head deadline with a 408 problem")
    func headDeadline() throws {
        let server = try TestServer()
        defer { server.stop() }
        let start = ContinuousClock.now
        let socket = try LoopbackSocket(port: server.port, receiveTimeout: 14_000)
        try socket.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        // The attack's pacing: each byte would reset an idle timeout.
        let pacing = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pacing"))
        pacing.schedule(deadline: .now() + 3, repeating: 3)
        pacing.setEventHandler { try? socket.send("X") }
        pacing.resume()
        defer { pacing.cancel() }
        let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
        let elapsed = start.duration(to: .now)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(60)) after \(elapsed)")
        #expect(answer.contains("application/problem+json") && answer.contains("\"code\":\"request_head_timeout\""))
        #expect(elapsed >= .seconds(10) && elapsed < .seconds(12))
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.outcome == .timedOut)
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }
}
