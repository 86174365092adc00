/// TLS credentials for an HTTP server, in PEM form (held in memory: the
/// engine never reads key files itself, so where keys live is the caller's
/// choice).
public struct HTTPServerTLS: Sendable {
    /// The certificate chain, PEM, leaf first.
    public var certificatePEM: String
    /// The private key, PEM, unencrypted.
    public var privateKeyPEM: String

    /// Makes TLS credentials.
    /// - Parameters:
    ///   - certificatePEM: the certificate chain, PEM.
    ///   - privateKeyPEM: the private key, PEM.
    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}
