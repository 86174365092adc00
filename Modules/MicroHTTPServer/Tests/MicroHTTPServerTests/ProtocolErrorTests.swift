import Foundation
import HTTPServerInterface
import HTTPTypes
import MicroHTTPServer
import Synchronization
import SystemTesting
import Testing

/// Protocol errors, written as raw bytes: each is answered within a second,
/// with a problem document wherever the engine can make the answer.
@Suite("MicroHTTPServer: protocol errors")
struct ProtocolErrorTests {
    @Test(
        "a transfer coding other than chunked alone is answered 501 at once",
        arguments: ["gzip", "identity", "gzip, chunked", "x-unknown", "chunked, chunked"])
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
            ("POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
            ("POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
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
}
