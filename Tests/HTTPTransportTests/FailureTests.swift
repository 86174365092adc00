import Foundation
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import ShareKitTestSupport
import Synchronization
import Testing

/// Failures a sender must be able to classify: cut connections,
/// cancellation, body files that are missing or change, bad requests.
@Suite("CurlHTTPClient: failures and cancellation")
struct FailureTests {
    @Test("a connection the server cuts mid-body is connectionLost (retryable)")
    func cutMidBody() async throws {
        let file = try TestFile(size: 16 << 20)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let error = await failure { () async throws(HTTPClientError) in
            try await client.send(
                HTTPClientRequest(
                    method: .put, url: server.url("/cut?after=1048576"),
                    body: .file(HTTPFileRegion(path: file.path, length: 16 << 20))))
        }
        guard case .connectionLost = error else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
            return
        }
        #expect(error?.isRetryable == true)
        // The next request gets a new connection and succeeds.
        #expect(try await client.send(HTTPClientRequest(url: server.url("/hello"))).status == 200)
    }

    @Test("cancelling the handle mid-upload ends a stalled transfer promptly as cancelled")
    func cancelHandleMidUpload() async throws {
        let file = try TestFile(size: 64 << 20)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let cancellation = HTTPCancellation()
        let log = ProgressLog()

        // The upload runs, and notes when it ended, on a thread of its own:
        // a busy cooperative pool must not count as cancellation latency.
        let url = server.url("/stall-sink")
        let upload = Task(executorPreference: TimingExecutor()) {
            let error = await failure { () async throws(HTTPClientError) in
                try await client.send(
                    HTTPClientRequest(
                        method: .put, url: url, body: .file(HTTPFileRegion(path: file.path, length: 64 << 20))),
                    options: HTTPRequestOptions(progress: log.callback, cancellation: cancellation))
            }
            return (error, ContinuousClock.now)
        }
        // The server has the first chunk and stops reading: the upload is stuck in the socket.
        #expect(await eventually { server.state.stalledSinks.load(ordering: .acquiring) > 0 })
        try await Task.sleep(for: .milliseconds(200))
        let cancelledAt = ContinuousClock.now
        cancellation.cancel()
        let (error, endedAt) = await upload.value
        let latency = endedAt - cancelledAt
        #expect(error == .cancelled)
        #expect(error?.isRetryable == false)
        // libcurl notices a stalled transfer's progress callback only about
        // once a second; the wakeup makes it a matter of milliseconds.
        #expect(latency < .milliseconds(500), "cancellation took \(latency)")
        #expect(log.all.last.map { $0.bytesSent > 0 && $0.bytesSent < 64 << 20 } == true)

        // A handle that is already cancelled fails the next request at once.
        let again = await failure { () async throws(HTTPClientError) in
            try await client.send(
                HTTPClientRequest(url: server.url("/hello")), options: HTTPRequestOptions(cancellation: cancellation))
        }
        #expect(again == .cancelled)
    }

    @Test("cancelling the sending task ends the transfer as cancelled")
    func cancelTask() async throws {
        let file = try TestFile(size: 64 << 20)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let url = server.url("/stall-sink")
        let upload = Task(executorPreference: TimingExecutor()) {
            let error = await failure { () async throws(HTTPClientError) in
                try await client.send(
                    HTTPClientRequest(
                        method: .put, url: url, body: .file(HTTPFileRegion(path: file.path, length: 64 << 20))))
            }
            return (error, ContinuousClock.now)
        }
        #expect(await eventually { server.state.stalledSinks.load(ordering: .acquiring) > 0 })
        let cancelledAt = ContinuousClock.now
        upload.cancel()
        let (error, endedAt) = await upload.value
        #expect(error == .cancelled)
        #expect(endedAt - cancelledAt < .milliseconds(500), "cancellation took \(endedAt - cancelledAt)")
    }

    @Test("body files: missing or a directory is fileUnreadable; shorter than the region is fileChanged")
    func fileProblems() async throws {
        let file = try TestFile(size: 1000)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        func put(_ region: HTTPFileRegion) async -> HTTPClientError? {
            await failure { () async throws(HTTPClientError) in
                try await client.send(HTTPClientRequest(method: .put, url: server.url("/sink"), body: .file(region)))
            }
        }
        let missing = await put(HTTPFileRegion(path: file.directory.file("nope"), length: 1))
        #expect(missing == .fileUnreadable(path: file.directory.file("nope"), reason: "No such file or directory"))
        let directory = await put(HTTPFileRegion(path: file.directory.path, length: 1))
        #expect(directory == .fileUnreadable(path: file.directory.path, reason: "not a regular file"))
        let short = await put(HTTPFileRegion(path: file.path, offset: 500, length: 501))
        guard case .fileChanged(let path, let reason) = short else {
            Issue.record("expected fileChanged, got \(String(describing: short))")
            return
        }
        #expect(path == file.path)
        #expect(reason.contains("1000 bytes") && reason.contains("1001"))
        #expect(short?.isRetryable == false)
        #expect(server.state.receivedBodies.withLock { $0.isEmpty }, "nothing reached the server")
    }

    @Test("a file that shrinks while it is sent ends the transfer as fileChanged")
    func fileShrinksMidUpload() async throws {
        let length = 32 << 20
        let file = try TestFile(size: length)
        defer { file.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let path = file.path
        let log = ProgressLog(threshold: 2 << 20) { _ = truncate(path, 1 << 20) }
        let error = await failure { () async throws(HTTPClientError) in
            try await client.send(
                HTTPClientRequest(
                    method: .put, url: server.url("/slow-sink?chunk_delay_ms=2"),
                    body: .file(HTTPFileRegion(path: file.path, length: UInt64(length)))),
                options: HTTPRequestOptions(progress: log.callback))
        }
        guard case .fileChanged(path, let reason) = error else {
            Issue.record("expected fileChanged, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("shorter"))
    }

    @Test("invalid URLs, methods and header fields are refused before anything is sent; a closed port is cannotConnect")
    func invalidRequests() async throws {
        let client = try CurlHTTPClient()
        func send(_ request: HTTPClientRequest) async -> HTTPClientError? {
            await failure { () async throws(HTTPClientError) in try await client.send(request) }
        }
        #expect(await send(HTTPClientRequest(url: "not a url")) == .invalidURL("not an absolute http or https URL"))
        #expect(
            await send(HTTPClientRequest(url: "ftp://127.0.0.1/x")) == .invalidURL("the scheme must be http or https"))
        #expect(
            await send(HTTPClientRequest(url: "file:///etc/passwd")) == .invalidURL("the scheme must be http or https"))
        let injected = await send(
            HTTPClientRequest(url: "http://127.0.0.1:1/", headers: ["X-Token": "secret-value\r\nX-Evil: 1"]))
        #expect(injected == .invalidRequest("header X-Token has an invalid name or a line break in its value"))
        #expect(injected.map { "\($0)".contains("secret-value") } == false, "the message never carries a value")
        #expect(
            await send(HTTPClientRequest(method: "GE T", url: "http://127.0.0.1:1/"))
                == .invalidRequest("the method is not a valid HTTP token"))

        let server = try LoopbackServer()
        let port = server.port
        server.stop()
        let refused = await send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/hello"))
        guard case .cannotConnect = refused else {
            Issue.record("expected cannotConnect, got \(String(describing: refused))")
            return
        }
        #expect(refused?.isRetryable == true)
    }

    @Test("a response body over the cap is responseTooLarge; at the cap it is fine")
    func responseCap() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let limit = 1 << 20
        let error = await failure { () async throws(HTTPClientError) in
            try await client.send(
                HTTPClientRequest(url: server.url("/big?bytes=\(limit + 1)")),
                options: HTTPRequestOptions(maxResponseBodyBytes: limit))
        }
        #expect(error == .responseTooLarge(limit: limit))
        let exact = try await client.send(
            HTTPClientRequest(url: server.url("/big?bytes=\(limit)")),
            options: HTTPRequestOptions(maxResponseBodyBytes: limit))
        #expect(exact.body.count == limit)
        #expect(HTTPRequestOptions().maxResponseBodyBytes == 8 << 20)
    }

    @Test("requests, responses and field lists print names, never values or queries")
    func descriptionsHideValues() {
        let request = HTTPClientRequest(
            method: .post, url: "https://h.example/a?token=q-secret",
            headers: ["Authorization": "DPoP t-secret", "DPoP": "p-secret"], body: .bytes([1]))
        let text = "\(request)"
        #expect(text == "POST https://h.example/a HTTPFields(Authorization, DPoP)")
        let response = HTTPClientResponse(
            status: 201, headers: ["Set-Cookie": "s-secret"], body: Array("b-secret".utf8))
        #expect("\(response)" == "201 HTTPFields(Set-Cookie) 8 bytes")
    }
}
