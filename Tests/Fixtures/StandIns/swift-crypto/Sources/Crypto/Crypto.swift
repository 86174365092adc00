/// The stand-in module `Crypto` of apple/swift-crypto: its name is what the consumer test needs.
public enum CryptoStandIn {
    /// The module's name.
    public static let name = "Crypto"
}
