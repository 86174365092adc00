/// The stand-in module `HTTPTypesFoundation` of apple/swift-http-types: its name is what the consumer test needs.
public enum HTTPTypesFoundationStandIn {
    /// The module's name.
    public static let name = "HTTPTypesFoundation"
}
