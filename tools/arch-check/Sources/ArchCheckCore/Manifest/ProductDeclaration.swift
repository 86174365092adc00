/// A product a package vends (`.library`, `.executable`, …).
public struct ProductDeclaration: Sendable, Hashable {
    /// The product's name, the one consumers write in `.product(name:)`.
    public let name: String
    /// The targets the product is made of. Depending on the product is
    /// depending on each of them directly.
    public let targets: [String]

    /// Creates a product record.
    public init(name: String, targets: [String]) {
        self.name = name
        self.targets = targets
    }
}
