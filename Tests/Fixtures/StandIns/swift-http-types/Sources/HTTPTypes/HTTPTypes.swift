/// The stand-in module `HTTPTypes` of apple/swift-http-types: its name is what the consumer test needs.
public enum HTTPTypesStandIn {
    /// The module's name.
    public static let name = "HTTPTypes"
}
