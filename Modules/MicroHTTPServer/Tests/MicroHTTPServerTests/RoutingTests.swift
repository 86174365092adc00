import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Requests and responses through a real server on loopback, with curl.
@Suite("MicroHTTPServer: routing, headers, query")
struct RoutingTests {
    @Test("GET, POST, PUT and DELETE reach the handler with their bodies")
    func methods() throws {
        let server = try TestServer()
        defer { server.stop() }

        let get = try Curl.request(server.url("/items/7"))
        #expect(get.status == 200)
        #expect(get.text == "item-7\n")
        #expect(get.header("content-type") == "text/plain; charset=utf-8")

        let post = try Curl.request(server.url("/items"), ["--data-binary", "payload \u{1F4E6}"])
        #expect(post.status == 201)
        #expect(post.text == "payload \u{1F4E6}")

        let put = try Curl.request(server.url("/items/9"), ["-X", "PUT", "--data-binary", "abc"])
        #expect(put.status == 200)
        #expect(put.text == "put 9 3 bytes: abc")

        let delete = try Curl.request(server.url("/items/9"), ["-X", "DELETE"])
        #expect(delete.status == 204)
        #expect(delete.body.isEmpty)

        let missing = try Curl.request(server.url("/nowhere"))
        #expect(missing.status == 404)
        #expect(missing.header("content-type") == "application/problem+json")
        #expect(try missing.json()["code"] as? String == "not_found")

        // HEAD: the GET answer's head, and nothing after it.
        let socket = try LoopbackSocket(port: server.port)
        try socket.send("HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let head = String(decoding: socket.receiveAll(), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.contains("Content-Length: 5\r\n"))
        #expect(head.hasSuffix("\r\n\r\n"))
    }

    @Test("request headers: repeated fields and any case; response headers: repeated fields, engine framing")
    func headers() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try Curl.request(
            server.url("/headers"),
            ["-H", "X-Multi: first", "-H", "x-multi: second", "-H", "authorization: DPoP token-value"])
        #expect(response.status == 200)
        #expect(response.text == "multi=first|second\nauthorization=DPoP token-value\n")
        #expect(response.values("x-out") == ["one", "two"])
        #expect(response.values("set-cookie") == ["a=1; Path=/", "b=2; Path=/"])
        // The handler's Content-Length is ignored; the engine frames the body.
        #expect(response.header("content-length") == String(response.body.count))
        #expect(response.header("x-request-id")?.isEmpty == false)
    }

    @Test("query items and path segments are decoded; the raw forms are kept")
    func query() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try Curl.request(server.url("/query/a%2Fb/c?q=hello+world&n=1&n=2&flag&enc=%C3%A9"))
        #expect(response.status == 200)
        #expect(
            response.text.split(separator: "\n").map(String.init) == [
                "path=/query/a%2Fb/c", "segments=query|a/b|c", "raw=q=hello+world&n=1&n=2&flag&enc=%C3%A9",
                "q=hello world", "n=1", "n=2", "flag=nil", "enc=é",
            ])
    }

    @Test("a file body is sent from the file, whole or a range; a missing file is a 500 problem")
    func fileBodies() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: server.directory.file("digits")))
        let whole = try Curl.request(server.url("/file?name=digits"))
        #expect(whole.status == 200)
        #expect(whole.text == "0123456789")
        let range = try Curl.request(server.url("/file-range?name=digits"))
        #expect(range.status == 206)
        #expect(range.text == "234")
        let missing = try Curl.request(server.url("/file?name=absent"))
        #expect(missing.status == 500)
        #expect(try missing.json()["code"] as? String == "response_file_unavailable")
    }

    @Test("one log record per request: method, route, status, id; never a header value or the query")
    func requestLog() throws {
        let server = try TestServer()
        defer { server.stop() }
        let first = try Curl.request(
            server.url("/items/1?token=secret-query"), ["-H", "Authorization: DPoP secret-token", "-H", "DPoP: proof"])
        let second = try Curl.request(server.url("/items"), ["--data-binary", "12345"])
        #expect(first.status == 200)
        #expect(second.status == 201)
        let records = server.log.wait(for: 2)
        #expect(records.count == 2)
        let get = try #require(records.first { $0.method == .get })
        #expect(get.route == "/items/1")
        #expect(get.status == .ok)
        #expect(get.outcome == .completed)
        #expect(get.requestID == first.header("x-request-id"))
        let post = try #require(records.first { $0.method == .post })
        #expect(post.route == "/items", "the handler's route template is logged")
        #expect(post.bodyBytes == 5)
        #expect(post.status == .created)
        for record in records {
            let line = record.description
            #expect(!line.contains("secret") && !line.contains("proof"), "\(line)")
        }
        #expect(get.requestID != post.requestID)
    }

    @Test(
        "a log line never carries a request's control characters: escape codes are written escaped",
        arguments: [
            // A target with raw escapes (refused 400), an unmatched path with
            // a C1 CSI (404), a method with escapes (400), a bidirectional override.
            "GET /\u{1B}]0;owned\u{07}\u{1B}[2J HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /a\u{9B}31mred HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "\u{1B}[31mGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /\u{202E}gnp.exe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ])
    func requestLogNeutralised(request: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let answer = RawExchange.send(port: server.port, request)
        #expect((400...499).contains(answer.status), "\(answer.status)")
        let line = try #require(server.log.wait(for: 1).first).description
        let unsafe = line.unicodeScalars.filter {
            [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
        #expect(unsafe.isEmpty, "\(line.debugDescription)")
        #expect(line.contains("\\u{"), "what was there is still shown: \(line)")
    }
}
