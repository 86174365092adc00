import HTTPInterface
import HTTPTransport
import Testing

/// Each time limit ends a request with its own case, within reason of the limit.
@Suite("CurlHTTPClient: time limits")
struct TimeoutTests {
    @Test("connect timeout: a server whose accept queue is full")
    func connect() async throws {
        let listener = try StalledListener()
        defer { listener.close() }
        let client = try CurlHTTPClient()
        let (error, duration) = await elapsed {
            await failure { () async throws(HTTPClientError) in
                try await client.send(
                    HTTPClientRequest(url: "http://127.0.0.1:\(listener.port)/hello"),
                    options: HTTPRequestOptions(timeouts: HTTPTimeouts(connect: .milliseconds(300))))
            }
        }
        #expect(error == .timedOut(.connect))
        #expect(error?.isRetryable == true)
        #expect(duration < .seconds(5), "took \(duration)")
    }

    @Test("low-speed timeout: a server that stops answering")
    func lowSpeed() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let (error, duration) = await elapsed {
            await failure { () async throws(HTTPClientError) in
                try await client.send(
                    HTTPClientRequest(url: server.url("/slow?ms=15000")),
                    options: HTTPRequestOptions(
                        timeouts: HTTPTimeouts(lowSpeedLimit: 1024, lowSpeedTime: .seconds(1))))
            }
        }
        #expect(error == .timedOut(.lowSpeed))
        #expect(duration >= .milliseconds(900) && duration < .seconds(8), "took \(duration)")
    }

    @Test("total timeout: the whole request takes too long")
    func total() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let (error, duration) = await elapsed {
            await failure { () async throws(HTTPClientError) in
                try await client.send(
                    HTTPClientRequest(url: server.url("/slow?ms=15000")),
                    options: HTTPRequestOptions(timeouts: HTTPTimeouts(lowSpeedLimit: 0, total: .milliseconds(400))))
            }
        }
        #expect(error == .timedOut(.total))
        #expect(duration >= .milliseconds(350) && duration < .seconds(5), "took \(duration)")
        // The client is still usable, on a fresh connection.
        #expect(try await client.send(HTTPClientRequest(url: server.url("/hello"))).status == 200)
    }
}
