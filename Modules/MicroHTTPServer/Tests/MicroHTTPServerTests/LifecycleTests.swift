import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Start, stop, restart, and what a stop does to requests in flight.
@Suite("MicroHTTPServer: start and graceful stop")
struct LifecycleTests {
    @Test("a graceful stop refuses new connections, lets the slow request in flight finish, then returns")
    func gracefulStop() throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        let port = server.port
        let slow = Background { RawResponse.get(port: port, "/slow", keepAlive: true) }
        #expect(server.controls.slowEntered.wait(timeout: .now() + 20) == .success)

        let stopper = Background { [server] in
            server.server.stop(gracePeriod: .seconds(30))
            return true
        }
        // The handler hears of the stop once the listener is shut.
        #expect(server.controls.stopping.wait(timeout: .now() + 20) == .success)
        #expect(LoopbackSocket.connectError(port: server.port) == ECONNREFUSED)
        #expect(!stopper.isFinished, "stop waits for the request in flight")
        #expect(!slow.isFinished)

        server.controls.slowRelease.signal()
        let answer = try #require(slow.value())
        #expect(answer.status == 200)
        #expect(answer.text == "slow done")
        #expect(answer.hasHeader("Connection", "close"))
        #expect(stopper.value() == true)
        #expect(server.server.boundPort == nil)
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.outcome == .completed)
    }

    @Test("serverWillStop lets a long poll answer early, so the stop does not wait out its grace period")
    func stopWakesLongPoll() throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        server.controls.wakeWaitersOnStop.store(true, ordering: .relaxed)
        let port = server.port
        let poll = Background { RawResponse.get(port: port, "/wait") }
        #expect(server.controls.waitEntered.wait(timeout: .now() + 20) == .success)
        let started = ContinuousClock.now
        server.server.stop(gracePeriod: .seconds(60))
        #expect(ContinuousClock.now - started < .seconds(30))
        let answer = try #require(poll.value())
        #expect(answer.status == 200)
    }

    @Test("after the grace period, a body still arriving is aborted with serverStopped")
    func stopAbortsUnfinishedBody() throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        let socket = try LoopbackSocket(port: server.port)
        try socket.send("PUT /upload/cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
        try socket.send([UInt8](repeating: 0x62, count: 100_000))
        #expect(server.controls.firstChunk.wait(timeout: .now() + 20) == .success)
        server.server.stop(gracePeriod: .milliseconds(200))
        #expect(server.controls.abortReasons.withLock { $0 } == [.serverStopped])
        #expect(!FileManager.default.fileExists(atPath: server.directory.file("cut.bin")))
        #expect(server.log.wait(for: 1).first?.outcome == .serverStopped)
    }

    @Test("start reports the bound port; a second start, a busy port and a name are errors; a stopped server restarts")
    func startErrors() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.server.boundPort == server.port)
        #expect(throws: HTTPServerError.alreadyRunning) { try server.server.start(host: "127.0.0.1", port: 0) }

        let other = MicroHTTPServer(handler: TestRoutes(controls: server.controls))
        do {
            _ = try other.start(host: "127.0.0.1", port: server.port)
            Issue.record("a busy port must not start")
        } catch {
            // Found before the engine starts: the address and what to do, not the engine's words.
            guard case .invalidAddress(let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains("127.0.0.1:\(server.port) is in use"), "\(message)")
        }
        #expect(throws: HTTPServerError.self) { try other.start(host: "example.com", port: 0) }
        #expect(throws: HTTPServerError.self) { try other.start(host: "127.0.0.1", port: 70000) }

        let bad = MicroHTTPServer(
            handler: TestRoutes(controls: server.controls),
            configuration: HTTPServerConfiguration(maxConnections: 0))
        #expect(throws: HTTPServerError.self) { try bad.start(host: "127.0.0.1", port: 0) }

        server.server.stop(gracePeriod: .seconds(1))
        #expect(LoopbackSocket.connectError(port: server.port) == ECONNREFUSED)
        let again = try server.server.start(host: "127.0.0.1", port: 0)
        #expect(try Curl.request("http://127.0.0.1:\(again)/hello").status == 200)
        let ipv6 = MicroHTTPServer(handler: TestRoutes(controls: server.controls))
        if let port = try? ipv6.start(host: "::1", port: 0) {
            #expect(try Curl.request("http://[::1]:\(port)/hello").status == 200)
            ipv6.stop(gracePeriod: .seconds(1))
        }
    }

    @Test("the connection limit makes room for a new connection; the idle timeout comes from the configuration")
    func limits() throws {
        let server = try TestServer { configuration in
            configuration.maxConnections = 2
            configuration.idleTimeout = .seconds(1)
        }
        defer { server.stop() }
        let first = try LoopbackSocket(port: server.port)
        let second = try LoopbackSocket(port: server.port)
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.receiveHead().hasPrefix("HTTP/1.1 200"))
        try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(second.receiveHead().hasPrefix("HTTP/1.1 200"))
        // A third connection is served: the idle keep-alive connection that
        // has waited longest for its next head (the first) is closed to make
        // room, without an answer (the busy case, 503, is in
        // ConnectionLimitTests).
        let third = try LoopbackSocket(port: server.port)
        try third.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: third.receiveAll(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(String(decoding: first.receiveAll(), as: UTF8.self) == "hello")
        // An idle keep-alive connection is closed after the idle timeout:
        // the read returns end-of-file (the socket's own timeout is 20 s).
        let started = ContinuousClock.now
        _ = second.receiveAll()
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test("the per-address limit closes a client's connections beyond it")
    func perAddressLimit() throws {
        let server = try TestServer { $0.maxConnectionsPerAddress = 1 }
        defer { server.stop() }
        let first = try LoopbackSocket(port: server.port)
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.receiveHead().hasPrefix("HTTP/1.1 200"))
        let second = try LoopbackSocket(port: server.port)
        try? second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(second.receiveAll().isEmpty)
        // The first connection is still served.
        try first.send("GET /items/2 HTTP/1.1\r\nHost: x\r\n\r\n")
        // (The first answer's body, "hello", comes before the second head.)
        #expect(first.receiveHead().hasPrefix("helloHTTP/1.1 200"))
    }
}
