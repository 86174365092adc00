/// The stand-in module `CryptoBoringWrapper` of apple/swift-crypto: its name is what the consumer test needs.
public enum CryptoBoringWrapperStandIn {
    /// The module's name.
    public static let name = "CryptoBoringWrapper"
}
