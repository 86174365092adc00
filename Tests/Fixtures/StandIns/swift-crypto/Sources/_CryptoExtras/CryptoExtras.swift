/// The stand-in module `_CryptoExtras` of apple/swift-crypto: its name is what the consumer test needs.
public enum CryptoExtrasStandIn {
    /// The module's name.
    public static let name = "_CryptoExtras"
}
