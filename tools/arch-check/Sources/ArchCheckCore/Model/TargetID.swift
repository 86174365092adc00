/// Identifies a target across the repository: its package directory (from
/// the root; `.` for the root package) and its name.
public struct TargetID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The package directory relative to the repository root (`.` for the root).
    public let package: String
    /// The target's name.
    public let name: String

    /// Creates an identifier.
    public init(package: String, name: String) {
        self.package = package
        self.name = name
    }

    /// Orders by package, then name, so output is stable.
    public static func < (lhs: TargetID, rhs: TargetID) -> Bool {
        (lhs.package, lhs.name) < (rhs.package, rhs.name)
    }

    /// `package:name`.
    public var description: String { "\(package):\(name)" }
}
