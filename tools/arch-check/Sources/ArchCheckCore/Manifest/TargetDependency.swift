/// One entry of a target's `dependencies:` list, as written in the manifest.
public enum TargetDependency: Sendable, Equatable, Hashable {
    /// A bare string (`"Foo"`) or `.byName(name:)`: a target of the same
    /// package, else a product of a package dependency.
    case byName(String)
    /// `.target(name:)`: a target of the same package.
    case target(String)
    /// `.product(name:package:)`: a product vended by a package dependency.
    /// `package` is `nil` in old manifests that leave it out.
    case product(name: String, package: String?)

    /// The name as written (target or product name), which is also what the
    /// checker searches the manifest text for to point at the line.
    public var name: String {
        switch self {
        case .byName(let name), .target(let name): name
        case .product(let name, _): name
        }
    }
}
