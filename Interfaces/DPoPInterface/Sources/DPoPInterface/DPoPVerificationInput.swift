/// What a server checks a DPoP proof against: the request as the server
/// received it, and what the server knows about the session.
public struct DPoPVerificationInput: Sendable {
    /// The value of the request's single `DPoP` header.
    public var proof: String
    /// The request method.
    public var method: String
    /// The request URL as the server reconstructs it (scheme, host and port
    /// it is reachable at, and the path); query and fragment are ignored.
    public var url: String
    /// The access token of `Authorization: DPoP`, when the request has one;
    /// the proof must then carry its hash as `ath`.
    public var accessToken: String?
    /// The thumbprint the session is bound to (`cnf.jkt`), when the request
    /// belongs to one; the proof's key must have this thumbprint.
    public var boundThumbprint: String?
    /// The server's nonce policy for this request; nil when no nonce is required.
    public var nonce: DPoPNonceRequirement?

    /// Describes one request.
    /// - Parameters:
    ///   - proof: the `DPoP` header value.
    ///   - method: the request method.
    ///   - url: the request URL.
    ///   - accessToken: the DPoP access token, if any.
    ///   - boundThumbprint: the session's `cnf.jkt`, if any.
    ///   - nonce: the nonce requirement, if any.
    public init(
        proof: String, method: String, url: String, accessToken: String? = nil, boundThumbprint: String? = nil,
        nonce: DPoPNonceRequirement? = nil
    ) {
        self.proof = proof
        self.method = method
        self.url = url
        self.accessToken = accessToken
        self.boundThumbprint = boundThumbprint
        self.nonce = nonce
    }
}
