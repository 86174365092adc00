import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization
import Testing

/// Methods, headers and bodies (bytes and file regions) over a real
/// loopback connection to a MicroHTTPServer.
@Suite("CurlHTTPClient: methods, headers, bodies")
struct BodyTests {
    @Test("GET: status, body, and header fields case-insensitive with repeated names kept")
    func getAndHeaders() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()

        let hello = try await client.send(HTTPClientRequest(url: server.url("/hello")))
        #expect(hello.status == 200)
        #expect(hello.text == "hello")
        #expect(hello.isSuccess)

        let response = try await client.send(
            HTTPClientRequest(url: server.url("/headers"), headers: ["X-Multi": "1", "x-multi": "2"]))
        #expect(response.headers.values(for: "X-OUT") == ["one", "two"])
        #expect(response.headers["x-out"] == "one")
        #expect(response.headers.values(for: "set-cookie") == ["a=1, b; Path=/", "c=3; Path=/"])
        #expect(response.headers["X-Seen-Multi"] == "1|2")
        #expect(response.headers["content-length"] == "2")
        #expect(response.metrics.httpVersion == "HTTP/1.1")

        let missing = try await client.send(HTTPClientRequest(url: server.url("/nowhere")))
        #expect(missing.status == 404, "an error status is a response, not an error")
        #expect(missing.headers["Content-Type"] == "application/problem+json")
    }

    @Test("POST and PUT send bytes exactly; a POST is never labelled form-encoded; small bodies skip Expect")
    func bytesBodies() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let json = Array(#"{"text":"h\u00e9llo","n":1}"#.utf8)

        let post = try await client.send(
            HTTPClientRequest(
                method: .post, url: server.url("/echo"), headers: ["Content-Type": "application/json"],
                body: .bytes(json)))
        #expect(post.status == 200)
        #expect(post.body == json)
        #expect(post.headers["X-Method"] == "POST")
        #expect(post.headers["X-Content-Type"] == "application/json")
        #expect(post.headers["X-Content-Length"] == "\(json.count)")
        #expect(post.headers["X-Expect"] == "-")
        #expect(post.headers["X-User-Agent"]?.hasPrefix("ShareKit libcurl/") == true)

        let bare = try await client.send(
            HTTPClientRequest(method: .post, url: server.url("/echo"), body: .bytes([1, 2])))
        #expect(bare.headers["X-Content-Type"] == "-", "libcurl's default form content type must not be sent")

        let put = try await client.send(
            HTTPClientRequest(method: .put, url: server.url("/echo"), body: .bytes(Array(0...255))))
        #expect(put.headers["X-Method"] == "PUT")
        #expect(put.body == Array(0...255))

        let emptyPost = try await client.send(HTTPClientRequest(method: .post, url: server.url("/echo")))
        #expect(emptyPost.headers["X-Content-Length"] == "0")
        #expect(emptyPost.body.isEmpty)
    }

    @Test("PATCH, DELETE and HEAD go out with their own methods")
    func otherMethods() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()

        let patch = try await client.send(
            HTTPClientRequest(method: .patch, url: server.url("/echo"), body: .bytes(Array("{}".utf8))))
        #expect(patch.headers["X-Method"] == "PATCH")
        #expect(patch.text == "{}")
        let delete = try await client.send(HTTPClientRequest(method: .delete, url: server.url("/echo")))
        #expect(delete.headers["X-Method"] == "DELETE")
        let head = try await client.send(HTTPClientRequest(method: .head, url: server.url("/hello")))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == "5")
    }

    @Test(
        "a file region in the middle of a file arrives exactly: those bytes, that length (PUT and POST)",
        arguments: [(1_000_003, 1_234_567), (100_001, 65_537), (7, 1)])
    func fileRegion(offset: Int, length: Int) async throws {
        let file = try TestFile(size: 3 << 20, seed: UInt64(offset))
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let expected = try file.sha256(offset: offset, length: length)
        let region = HTTPFileRegion(path: file.path, offset: UInt64(offset), length: UInt64(length))

        for method in [HTTPRequestMethod.put, .post] {
            let response = try await client.send(
                HTTPClientRequest(
                    method: method, url: server.url("/sink"), headers: ["Content-Type": "application/octet-stream"],
                    body: .file(region)))
            #expect(response.status == 200)
            #expect(response.text == "\(length) \(expected)")
            #expect(response.metrics.bodyBytesSent == UInt64(length))
        }
        let received = server.state.receivedBodies.withLock { $0 }
        #expect(received.map(\.contentLength) == ["\(length)", "\(length)"])
        #expect(received.allSatisfy { $0.sha256 == expected && $0.bytes == length })
    }

    @Test("an empty region sends an empty body")
    func emptyRegion() async throws {
        let file = try TestFile(size: 10)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let response = try await client.send(
            HTTPClientRequest(
                method: .put, url: server.url("/sink"),
                body: .file(HTTPFileRegion(path: file.path, offset: 10, length: 0))))
        #expect(response.text.hasPrefix("0 e3b0c442"))
    }

    @Test("redirects: not followed by default; a 307 is followed with the file body sent again; a loop is refused")
    func redirects() async throws {
        let file = try TestFile(size: 300_000)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()

        let unfollowed = try await client.send(HTTPClientRequest(url: server.url("/redirect")))
        #expect(unfollowed.status == 302)
        #expect(unfollowed.headers["Location"] == "/hello")
        let followed = try await client.send(
            HTTPClientRequest(url: server.url("/redirect")), options: HTTPRequestOptions(redirectLimit: 2))
        #expect(followed.status == 200)
        #expect(followed.text == "hello")

        // The first request sent the whole body to /redirect-to-sink; the
        // 307 makes libcurl rewind it (the seek callback) and send it to /sink.
        let moved = try await client.send(
            HTTPClientRequest(
                method: .put, url: server.url("/redirect-to-sink"),
                body: .file(HTTPFileRegion(path: file.path, length: 300_000))),
            options: HTTPRequestOptions(redirectLimit: 1))
        #expect(moved.status == 200)
        #expect(moved.text == "300000 \(try file.sha256())")

        let error = await failure { () async throws(HTTPClientError) in
            try await client.send(
                HTTPClientRequest(url: server.url("/loop")), options: HTTPRequestOptions(redirectLimit: 3))
        }
        #expect(error == .tooManyRedirects(limit: 3))
        #expect(error?.isRetryable == false)
    }
}
