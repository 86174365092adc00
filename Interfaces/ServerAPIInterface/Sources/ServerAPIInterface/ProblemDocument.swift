/// The parts of an error answer (`application/problem+json`, RFC 9457) a
/// client reads: `code` (else `http_<status>`) and `detail` (else `title`,
/// else a sentence naming the status). Token endpoints answer nonce
/// challenges the OAuth way, so `error` stands in for a missing `code`.
/// A tolerant reading of the contract's ``ShareKitWireContract/ProblemBody`` and
/// ``ShareKitWireContract/OAuthErrorBody`` (docs/adr/0025-shared-wire-contract.md).
public struct ProblemDocument: Hashable, Sendable {
    /// The problem's code, e.g. `write_forbidden`.
    public var code: String
    /// The problem's text for a person, with the server's words.
    public var message: String
    /// Whether the body had a code of its own (`code` or `error`).
    public var hasCode: Bool

    private struct Body: Decodable {
        var code: String?
        var error: String?
        var detail: String?
        var title: String?
    }

    /// Reads a problem document; a body that is not one gives the status-based fallbacks.
    /// - Parameters:
    ///   - body: the answer's body.
    ///   - status: the answer's status.
    public init(body: [UInt8], status: Int) {
        let decoded = try? APIJSON.decode(Body.self, from: body)
        let own = decoded?.code ?? decoded?.error
        code = own ?? "http_\(status)"
        hasCode = own != nil
        message = decoded?.detail ?? decoded?.title ?? "The server answered \(status)."
    }
}
