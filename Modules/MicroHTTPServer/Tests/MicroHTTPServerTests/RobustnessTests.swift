import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Hostile or broken input, and handler bugs: 4xx or a 500 problem, never a
/// crash, and the server keeps serving.
@Suite("MicroHTTPServer: bad input and handler failures")
struct RobustnessTests {
    @Test("a header larger than the connection memory gets a 4xx, and the server keeps serving")
    func hugeHeader() throws {
        let server = try TestServer()
        defer { server.stop() }
        // 200 KB in one field, passed through a file (too long for argv).
        let headerFile = server.directory.file("huge-header")
        try Data(("X-Huge: " + String(repeating: "h", count: 200_000) + "\n").utf8)
            .write(to: URL(fileURLWithPath: headerFile))
        let response = try Curl.request(server.url("/hello"), ["-H", "@" + headerFile])
        #expect((400...499).contains(response.status), "status \(response.status)")
        #expect(try Curl.request(server.url("/hello")).status == 200)
        // The engine refused it before the handler; it is still logged, and
        // its request state was released. (A request leaves the count just
        // after its record is written: wait for that, then read the count.)
        let records = server.log.wait(for: 2)
        #expect(records.contains { $0.method == nil && $0.failure != nil })
        #expect(server.server.waitUntilNoRequestInFlight(timeout: .seconds(20)))
        #expect(server.server.requestsInFlight == 0)
    }

    @Test(
        "a malformed request line or header gets 400 and the server keeps serving",
        arguments: [
            "GET /hello\r\n\r\n", "GET /hello HTTP/1.1 extra\r\nHost: x\r\n\r\n",
            "G@T /hello HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET hello HTTP/1.1\r\nHost: x\r\n\r\n", "GET /he\u{1}llo HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /hello HTTP/1.1\r\nBad Header Line\r\nHost: x\r\n\r\n",
            "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        ])
    func malformedRequestLine(request: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port)
        try socket.send(request)
        let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(80))")
        socket.close()
        #expect(try Curl.request(server.url("/hello")).status == 200)
        #expect(server.controls.respondCalls.load(ordering: .relaxed) == 1, "only the good request reached the handler")
    }

    @Test("bytes that are not HTTP at all close the connection; the server keeps serving")
    func garbage() throws {
        let server = try TestServer()
        defer { server.stop() }
        for bytes in [
            Array("GET\r\n\r\n".utf8), [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x0D, 0x0A, 0x0D, 0x0A],
        ] {
            let socket = try LoopbackSocket(port: server.port)
            try socket.send(bytes)
            let answer = socket.receiveAll()
            #expect(answer.isEmpty || String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 4"))
        }
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    @Test("a handler that throws gets a 500 problem with a code; the cause goes to the log only")
    func handlerThrows() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try Curl.request(server.url("/throw"))
        #expect(response.status == 500)
        #expect(response.header("content-type") == "application/problem+json")
        let problem = try response.json()
        #expect(problem["code"] as? String == "internal_error")
        #expect(!response.text.contains("boom"), "the error's description is not sent")
        let record = try #require(server.log.wait(for: 1).first)
        #expect(record.status == .internalServerError)
        #expect(record.failure?.contains("boom") == true)
        #expect(try Curl.request(server.url("/hello")).status == 200)
    }

    @Test("a thrown HTTPProblem is sent as it is")
    func thrownProblem() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try Curl.request(server.url("/problem"))
        #expect(response.status == 403)
        let problem = try response.json()
        #expect(problem["code"] as? String == "write_forbidden")
        #expect(problem["detail"] as? String == "No writing here.")
        #expect(problem["title"] as? String == "Forbidden")
    }

    @Test("a response the engine cannot send (header injection, bad status) becomes a 500 problem")
    func invalidResponses() throws {
        let server = try TestServer()
        defer { server.stop() }
        let injected = try Curl.request(server.url("/bad-header"))
        #expect(injected.status == 500)
        #expect(injected.header("set-cookie") == nil)
        #expect(try injected.json()["code"] as? String == "internal_error")
        let status = try Curl.request(server.url("/bad-status"))
        #expect(status.status == 500)
        let records = server.log.wait(for: 2)
        #expect(records.allSatisfy { $0.failure?.isEmpty == false })
        #expect(records.allSatisfy { !($0.failure ?? "").contains("evil") }, "values are never logged")
    }
}
