import Foundation
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Testing

/// What a module sending through ``CurlHTTPClient`` sees over real HTTP on
/// loopback: the request as sent, the answer as received, and each failure
/// as the error a sender can classify.
@Suite("CurlHTTPClient: real HTTP over loopback")
struct CurlHTTPClientTests {
    @Test("a GET gets the status, header fields and body; the server sees the method, path and user agent")
    func get() async throws {
        let server = try LoopbackServer([.respond(status: 201, headers: ["X-Answer": "yes"], body: Array("hello".utf8))]
        )
        defer { server.stop() }
        let client = try CurlHTTPClient(configuration: .init(userAgent: "module-test/1"))
        let response = try await client.send(
            HTTPClientRequest(url: server.origin + "/api/v1/me?x=1"), options: HTTPRequestOptions())
        #expect(response.status == 201 && response.headers["X-Answer"] == "yes")
        #expect(response.body == Array("hello".utf8))
        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET" && seen.target == "/api/v1/me?x=1")
        #expect(seen.headers["user-agent"] == "module-test/1")
    }

    @Test("a POST sends its bytes, and a file region sends exactly those bytes of the file")
    func bodies() async throws {
        let server = try LoopbackServer([
            .respond(status: 200, headers: [:], body: []), .respond(status: 200, headers: [:], body: []),
        ])
        defer { server.stop() }
        let temporary = try TemporaryDirectory(prefix: "sharekit-transport-module")
        defer { temporary.remove() }
        let path = temporary.file("data.bin")
        let file = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let client = try CurlHTTPClient()
        _ = try await client.send(
            HTTPClientRequest(
                method: .post, url: server.origin + "/json", headers: ["Content-Type": "application/json"],
                body: .bytes(Array(#"{"a":1}"#.utf8))), options: HTTPRequestOptions())
        _ = try await client.send(
            HTTPClientRequest(
                method: .put, url: server.origin + "/part",
                body: .file(HTTPFileRegion(path: path, offset: 1000, length: 4000))), options: HTTPRequestOptions())
        let seen = server.requests
        #expect(seen.count == 2)
        #expect(
            seen.first?.body == Array(#"{"a":1}"#.utf8) && seen.first?.headers["content-type"] == "application/json")
        #expect(seen.last?.method == "PUT" && seen.last?.body == Array(file[1000..<5000]))
    }

    @Test("an answer over the body limit, a hang-up and a closed port are errors a sender can classify")
    func failures() async throws {
        let server = try LoopbackServer([
            .respond(status: 200, headers: [:], body: [UInt8](repeating: 65, count: 5000)), .hangUp,
        ])
        let client = try CurlHTTPClient()
        await #expect(throws: HTTPClientError.responseTooLarge(limit: 1000)) {
            _ = try await client.send(
                HTTPClientRequest(url: server.origin + "/big"), options: HTTPRequestOptions(maxResponseBodyBytes: 1000))
        }
        await #expect {
            _ = try await client.send(HTTPClientRequest(url: server.origin + "/gone"), options: HTTPRequestOptions())
        } throws: { error in
            (error as? HTTPClientError)?.isRetryable == true
        }
        let origin = server.origin
        server.stop()
        await #expect {
            _ = try await client.send(HTTPClientRequest(url: origin + "/closed"), options: HTTPRequestOptions())
        } throws: { error in
            guard case .cannotConnect = error as? HTTPClientError else { return false }
            return true
        }
        await #expect {
            _ = try await client.send(HTTPClientRequest(url: "ftp://127.0.0.1/x"), options: HTTPRequestOptions())
        } throws: { error in
            (error as? HTTPClientError)?.isRetryable == false
        }
    }
}
