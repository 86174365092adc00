import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Testing

/// Each time limit ends a request with its own case, soon after the limit.
/// Durations are measured on a thread of their own (``TimingExecutor``), and
/// the upper bounds stay far below the servers' own delays, so they show
/// which limit ended the request without depending on how busy the machine is.
@Suite("CurlHTTPClient: time limits")
struct TimeoutTests {
    @Test("connect timeout: a server whose accept queue is full")
    func connect() async throws {
        let listener = try StalledListener()
        defer { listener.close() }
        let client = try CurlHTTPClient()
        let port = listener.port
        let (error, duration) = await TimingExecutor.run {
            await elapsed {
                await failure { () async throws(HTTPClientError) in
                    try await client.send(
                        HTTPClientRequest(url: "http://127.0.0.1:\(port)/hello"),
                        options: HTTPRequestOptions(timeouts: HTTPTimeouts(connect: .milliseconds(300))))
                }
            }
        }
        #expect(error == .timedOut(.connect))
        #expect(error?.isRetryable == true)
        // Without the limit, the kernel's SYN retries would take minutes.
        #expect(duration >= .milliseconds(250) && duration < .seconds(5), "took \(duration)")
    }

    @Test("low-speed timeout: a server that stops answering")
    func lowSpeed() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let url = server.url("/slow?ms=30000")
        let (error, duration) = await TimingExecutor.run {
            await elapsed {
                await failure { () async throws(HTTPClientError) in
                    try await client.send(
                        HTTPClientRequest(url: url),
                        options: HTTPRequestOptions(
                            timeouts: HTTPTimeouts(lowSpeedLimit: 1024, lowSpeedTime: .seconds(1))))
                }
            }
        }
        #expect(error == .timedOut(.lowSpeed))
        #expect(duration >= .milliseconds(900) && duration < .seconds(10), "took \(duration)")
    }

    @Test("total timeout: the whole request takes too long")
    func total() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = try CurlHTTPClient()
        let url = server.url("/slow?ms=30000")
        let (error, duration) = await TimingExecutor.run {
            await elapsed {
                await failure { () async throws(HTTPClientError) in
                    try await client.send(
                        HTTPClientRequest(url: url),
                        options: HTTPRequestOptions(
                            timeouts: HTTPTimeouts(lowSpeedLimit: 0, total: .milliseconds(400))))
                }
            }
        }
        #expect(error == .timedOut(.total))
        #expect(duration >= .milliseconds(350) && duration < .seconds(10), "took \(duration)")
        // The client is still usable, on a fresh connection.
        #expect(try await client.send(HTTPClientRequest(url: server.url("/hello"))).status == 200)
    }
}
