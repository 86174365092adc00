/// The stand-in module `CCryptoBoringSSLShims` of apple/swift-crypto: its name is what the consumer test needs.
public enum CCryptoBoringSSLShimsStandIn {
    /// The module's name.
    public static let name = "CCryptoBoringSSLShims"
}
