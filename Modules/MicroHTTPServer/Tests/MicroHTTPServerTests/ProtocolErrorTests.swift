import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Protocol errors, written as raw bytes: each is answered within a second,
/// with a problem document wherever the engine can make the answer.
@Suite("MicroHTTPServer: protocol errors")
struct ProtocolErrorTests {
    @Test(
        "a transfer coding other than chunked alone is answered 501 at once",
        arguments: [
            "gzip", "identity", "gzip, chunked", "x-unknown", "chunked, chunked",
            // What libmicrohttpd does not take for chunked (it compares the
            // whole value) and would read to the end of the connection.
            "chunked ", "chunked\t", ",chunked", "chunked,", "chunked ,", "",
            "\r\nTransfer-Encoding: chunked", "chunked\r\nTransfer-Encoding: ",
        ])
    func unsupportedTransferCoding(coding: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let answer = RawExchange.send(
            port: server.port, "POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(coding)\r\n\r\nabc",
            timeout: 1000)
        #expect(answer.status == 501, "\(answer.status) after \(answer.elapsed)")
        #expect(answer.problem?["code"] as? String == "unsupported_transfer_coding")
        #expect(answer.elapsed < .seconds(1))
        #expect(server.controls.respondCalls.load(ordering: .relaxed) == 0)
    }

    @Test("a target over the limit is answered 414 with a problem")
    func longTarget() throws {
        let server = try TestServer()
        defer { server.stop() }
        let target = "/hello?" + String(repeating: "a", count: 9000)
        let answer = RawExchange.send(port: server.port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(answer.status == 414)
        #expect(answer.problem?["code"] as? String == "uri_too_long")
        #expect(answer.elapsed < .seconds(1))
    }

    @Test("a head over the limit is answered 431 with a problem")
    func largeHead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let field = "X-Big: " + String(repeating: "b", count: 20_000)
        let answer = RawExchange.send(port: server.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\(field)\r\n\r\n")
        #expect(answer.status == 431)
        #expect(answer.problem?["code"] as? String == "header_fields_too_large")
        #expect(answer.elapsed < .seconds(1))
    }

    /// What libmicrohttpd 0.9.75 answers itself, before or without any
    /// callback that could queue another answer (docs/security.md lists
    /// them): its status, at once, with its own body.
    @Test(
        "libmicrohttpd's own answers come at once with their status (the documented exceptions)",
        arguments: [
            ("GET /hello?\(String(repeating: "a", count: 70_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 70_000))\r\n\r\n", 431),
            ("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET /hello HTTP/0.9\r\nHost: x\r\n\r\n", 505),
            ("POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
        ])
    func engineAnswers(request: String, status: Int) throws {
        let server = try TestServer()
        defer { server.stop() }
        let answer = RawExchange.send(port: server.port, request, timeout: 1000)
        #expect(answer.status == status, "\(answer.status) after \(answer.elapsed)")
        #expect(answer.elapsed < .seconds(1))
        #expect(
            answer.problem == nil,
            "a problem document: libmicrohttpd's answer can be replaced now; update docs/security.md")
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    @Test(
        "a Content-Length that is not a decimal number is answered once, with a problem",
        arguments: [
            ("+5", 400, "bad_request"), ("abc", 400, "bad_request"), ("-1", 400, "bad_request"),
            ("5 ", 400, "bad_request"), ("0x10", 400, "bad_request"), ("5, 5", 400, "bad_request"),
            ("99999999999999999999999", 413, "body_too_large"),
        ])
    func malformedContentLength(value: String, status: Int, code: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port, receiveTimeout: 2000)
        let start = ContinuousClock.now
        try socket.send("POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(value)\r\n\r\nhello")
        let bytes = socket.receiveAll()
        let elapsed = start.duration(to: .now)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "one status line: \(text)")
        let answer = try #require(RawExchange.parse(bytes, elapsed: elapsed))
        #expect(answer.status == status, "\(text)")
        #expect(answer.problem?["code"] as? String == code, "\(text)")
        #expect(answer.headers["content-length"] == String(answer.body.count), "\(text)")
        #expect(elapsed < .seconds(1))
        #expect(server.controls.respondCalls.load(ordering: .relaxed) == 0)
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.status?.rawValue == status, "\(record)")
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }
}
