import HTTPInterface
import HTTPTypes
import Synchronization

/// A test double of the DPoP-signing client: answers each request with the
/// next scripted result and records what was sent. For the error mapping
/// only; the behaviour tests use the real client against `share-server`.
final class ScriptedSigningClient: DPoPSigningHTTPClient {
    private let script: Mutex<[Result<HTTPClientResponse, HTTPClientError>]>
    private let sent = Mutex<[HTTPClientRequest]>([])

    /// - Parameter script: the answers, in order; the last one repeats.
    init(_ script: [Result<HTTPClientResponse, HTTPClientError>]) {
        self.script = Mutex(script)
    }

    /// The requests sent so far.
    var requests: [HTTPClientRequest] { sent.withLock { $0 } }

    func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try await send(request, accessToken: nil, options: options)
    }

    func send(_ request: HTTPClientRequest, accessToken: String?, options: HTTPRequestOptions)
        async throws(HTTPClientError) -> HTTPClientResponse
    {
        sent.withLock { $0.append(request) }
        let next = script.withLock { script in script.count > 1 ? script.removeFirst() : script[0] }
        return try next.get()
    }

    /// A JSON response.
    static func json(_ status: Int, _ text: String) -> Result<HTTPClientResponse, HTTPClientError> {
        .success(
            HTTPClientResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8)))
    }
}
