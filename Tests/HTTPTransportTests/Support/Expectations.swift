import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Testing

/// Runs a send that must fail and returns its error (recording an issue when it succeeded).
func failure(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws(HTTPClientError) -> HTTPClientResponse
) async -> HTTPClientError? {
    do {
        let response = try await operation()
        Issue.record("expected an error, got a response: \(response)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The time an operation took.
func elapsed<T>(_ operation: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let result = try await operation()
    return (result, .now - start)
}

extension HTTPClientResponse {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Waits until a condition holds, checking every 10 ms without blocking a
/// thread (tests run on the cooperative pool, which has one thread per core).
/// - Returns: false when `timeout` passed first.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
