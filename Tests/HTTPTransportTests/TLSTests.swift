import ShareKitHTTPInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// HTTPS against a certificate made for this run.
@Suite("CurlHTTPClient: TLS")
struct TLSTests {
    @Test("with the run's CA file the request succeeds (HTTP/1.1: the server offers no h2); without it, tlsFailure")
    func customCA() async throws {
        let files = try TLSFiles()
        defer { files.directory.remove() }
        let tls = try files.serverTLS()
        let server = try LoopbackServer { $0.tls = tls }
        defer { server.stop() }

        let trusting = try CurlHTTPClient(configuration: .init(caFile: files.certificatePath))
        let response = try await trusting.send(HTTPClientRequest(url: server.url("/hello")))
        #expect(response.status == 200)
        #expect(response.text == "hello")
        // libmicrohttpd does not offer h2 in ALPN, so HTTP/2TLS settles on HTTP/1.1.
        #expect(response.metrics.httpVersion == "HTTP/1.1")
        let file = try TestFile(size: 2 << 20)
        defer { file.remove() }
        let upload = try await trusting.send(
            HTTPClientRequest(
                method: .put, url: server.url("/sink"), body: .file(HTTPFileRegion(path: file.path, length: 2 << 20))))
        #expect(upload.text == "\(2 << 20) \(try file.sha256())")
        #expect(upload.metrics.reusedConnection, "the TLS connection is reused")

        let systemOnly = try CurlHTTPClient()
        let error = await failure { () async throws(HTTPClientError) in
            try await systemOnly.send(HTTPClientRequest(url: server.url("/hello")))
        }
        guard case .tlsFailure = error else {
            Issue.record("expected tlsFailure, got \(String(describing: error))")
            return
        }
        #expect(error?.isRetryable == false)
    }

    @Test("a CA file that cannot be read is refused when the client is made")
    func unreadableCA() {
        #expect(throws: HTTPClientError.self) {
            try CurlHTTPClient(configuration: .init(caFile: "/nonexistent/ca.pem"))
        }
    }
}
