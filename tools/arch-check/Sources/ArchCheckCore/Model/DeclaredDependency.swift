/// A dependency edge written in a manifest, resolved to the targets it brings.
public struct DeclaredDependency: Sendable, Hashable {
    /// The entry as written (`"Foo"`, `.product(name:package:)`, …).
    public let declaration: TargetDependency
    /// The targets it makes direct dependencies (one for a target, all
    /// targets of the product for a product).
    public let targets: [TargetID]
    /// Where the entry is written in the consumer's `Package.swift`.
    public let location: SourceLocation

    /// Creates an edge record.
    public init(declaration: TargetDependency, targets: [TargetID], location: SourceLocation) {
        self.declaration = declaration
        self.targets = targets
        self.location = location
    }
}
