/// A package dependency of a manifest (`.package(path:)`, or a remote one,
/// which this repository cannot have but the checker still reads).
public struct PackageReference: Sendable, Equatable {
    /// SwiftPM's identity of the dependency (lower-cased last path component).
    public let identity: String
    /// The `name:` given in old-style `.package(name:path:)`, if any.
    public let nameAlias: String?
    /// Absolute path of a file-system dependency; `nil` for remote ones.
    public let path: String?

    /// Creates a reference.
    public init(identity: String, nameAlias: String? = nil, path: String? = nil) {
        self.identity = identity
        self.nameAlias = nameAlias
        self.path = path
    }

    /// Whether `.product(…, package: name)` refers to this dependency.
    /// SwiftPM matches the identity or the declared name, ignoring case.
    func matches(packageArgument name: String, manifestName: String?) -> Bool {
        let wanted = name.lowercased()
        return identity.lowercased() == wanted || nameAlias?.lowercased() == wanted
            || manifestName?.lowercased() == wanted
    }
}
