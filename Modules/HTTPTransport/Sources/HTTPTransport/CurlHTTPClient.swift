import Glibc
public import ShareKitHTTPInterface
import ShareKitHTTPTypes
import Synchronization

/// The ``ShareKitHTTPInterface/HTTPClient`` on libcurl: HTTP/1.1, and HTTP/2 where an
/// `https` server offers it; connections reused across requests; bodies
/// streamed from file regions; connect, low-speed and total time limits;
/// prompt cancellation; TLS with a configurable CA file.
///
/// One client runs one libcurl multi handle on a thread of its own (not one
/// of Swift concurrency's): every request becomes an easy handle on it, so
/// all requests share one connection cache, a long upload never occupies the
/// cooperative thread pool, and cancelling wakes the transfer at once. Make
/// one client per program and share it; it is safe to use from many tasks.
/// Its thread ends when the client is released.
///
/// Making a client starts loading libcurl on a background thread (about
/// 5 ms of dynamic loading, see ``CurlLibrary``) and returns; the first
/// request waits for it if it is not done yet. A program that makes its
/// client, then writes to disk before its first request (`share send` keeps
/// the share in its inbox first) gets libcurl loaded while it waits for the disk.
///
/// ```swift
/// let client = try CurlHTTPClient()
/// let part = HTTPClientRequest(
///     method: .put, url: "https://chat.example/api/v1/uploads/u1/parts/2",
///     headers: ["Content-Type": "application/octet-stream"],
///     body: .file(HTTPFileRegion(path: "/home/alex/video.mp4", offset: 8_388_608, length: 8_388_608)))
/// let response = try await client.send(part, options: HTTPRequestOptions(progress: { print($0) }))
/// ```
public final class CurlHTTPClient: HTTPClient {
    private let configuration: Configuration
    /// The multi handle's loop, made by the first request.
    private let loopState = Mutex<Result<CurlEventLoop, HTTPClientError>?>(nil)

    /// Makes a client and starts loading libcurl in the background; the
    /// event loop and its thread start with the first request.
    /// - Parameter configuration: the CA file, user agent and connection limits.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError/tlsFailure(_:)`` when the CA file
    ///   cannot be read. When libcurl cannot be loaded or initialized, each
    ///   request fails with ``ShareKitHTTPInterface/HTTPClientError/transportFailure(_:)``.
    public init(configuration: Configuration = Configuration()) throws(HTTPClientError) {
        if let caFile = configuration.caFile, access(caFile, R_OK) != 0 {
            throw .tlsFailure("the CA file \(caFile) cannot be read: \(String(cString: strerror(errno)))")
        }
        self.configuration = configuration
        if configuration.loadsLibraryEarly { CurlLibrary.loadInBackground() }
    }

    deinit {
        if case .success(let loop) = loopState.withLock({ $0 }) { loop.shutdown() }
    }

    /// The event loop, made (once) by the first request that needs it.
    private func eventLoop() throws(HTTPClientError) -> CurlEventLoop {
        let state = loopState.withLock { state -> Result<CurlEventLoop, HTTPClientError> in
            if let state { return state }
            let made: Result<CurlEventLoop, HTTPClientError>
            do throws(HTTPClientError) {
                made = .success(try CurlEventLoop(configuration: configuration))
            } catch {
                made = .failure(error)
            }
            state = made
            return made
        }
        return try state.get()
    }

    /// Sends one request; see ``ShareKitHTTPInterface/HTTPClient/send(_:options:)``.
    /// - Parameters:
    ///   - request: what to send.
    ///   - options: time limits, progress, cancellation, limits.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError`` when no complete response arrived.
    public func send(_ request: HTTPClientRequest, options: HTTPRequestOptions) async throws(HTTPClientError)
        -> HTTPClientResponse
    {
        try Self.validate(request)
        let loop = try eventLoop()
        let transfer = CurlTransfer(request: request, options: options, configuration: configuration)
        let registration = options.cancellation?.addHandler { transfer.cancel(on: loop) }
        defer { if let registration { options.cancellation?.removeHandler(registration) } }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.setContinuation(continuation)
                loop.submit(transfer)
            }
        } onCancel: {
            transfer.cancel(on: loop)
        }
        return try outcome.get()
    }

    /// Refuses what libcurl would send wrongly or not at all.
    private static func validate(_ request: HTTPClientRequest) throws(HTTPClientError) {
        try CurlURL.validate(request.url)
        guard request.method.isValidToken else { throw .invalidRequest("the method is not a valid HTTP token") }
        for field in request.headers where !field.isValid {
            // Name the field only when the name itself is printable; never its value.
            let name = field.name.utf8.allSatisfy(HTTPField.isTokenCharacter) ? field.name : "a field"
            throw .invalidRequest("header \(name) has an invalid name or a line break in its value")
        }
        if case .file(let region) = request.body, region.path.isEmpty {
            throw .fileUnreadable(path: region.path, reason: "the path is empty")
        }
    }
}
