/// The stand-in module `CCryptoBoringSSL` of apple/swift-crypto: its name is what the consumer test needs.
public enum CCryptoBoringSSLStandIn {
    /// The module's name.
    public static let name = "CCryptoBoringSSL"
}
