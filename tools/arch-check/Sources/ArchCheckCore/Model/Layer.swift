/// The architectural layer of a target, given by where its sources lie.
///
/// Apps → Modules → Interfaces: each layer may use the ones to its right,
/// never the ones to its left. Support sits beside Interfaces at the bottom:
/// small dependency-free building blocks with I/O that modules, apps and
/// tests may use, that use nothing but other support targets, and that
/// interfaces (which hold no I/O) may not use. Tests sit above everything
/// and may use anything; nothing but tests may use them.
public enum Layer: String, Sendable, Codable, Comparable, CaseIterable {
    /// Sources under `Interfaces/`: protocols and value types.
    case interface
    /// Sources under `Support/`: small dependency-free building blocks with I/O.
    case support
    /// Sources under `Modules/`: one implementation package per boundary.
    case module
    /// Sources under `Apps/`: executables and composition roots.
    case app
    /// Sources under `Tests/`: test targets and consumer fixtures.
    case test
    /// Anywhere else (a layout mistake, or a package outside the tree).
    case other

    /// The layer of a source directory given relative to the repository root.
    /// - Parameter relativePath: e.g. `Modules/Uploads/Sources/Uploads`.
    /// - Returns: the layer named by the path's first component.
    public static func of(relativePath: String) -> Layer {
        switch relativePath.split(separator: "/").first {
        case "Interfaces": .interface
        case "Support": .support
        case "Modules": .module
        case "Apps": .app
        case "Tests": .test
        default: .other
        }
    }

    /// The top-level folder of the layer, for messages.
    public var folder: String {
        switch self {
        case .interface: "Interfaces/"
        case .support: "Support/"
        case .module: "Modules/"
        case .app: "Apps/"
        case .test: "Tests/"
        case .other: "outside the five layer folders"
        }
    }

    /// Whether a target of this layer may use (depend on or import) a target
    /// of `dependency`'s layer, as the `layers` contract says.
    ///
    /// Interfaces use interfaces; support uses support; modules use
    /// interfaces, support and modules (which modules, `independence`
    /// decides); apps use everything but tests; tests use anything. Targets
    /// outside the layers, on either side, are not judged here: they are
    /// reported on their own.
    /// - Parameter dependency: the layer of the target used.
    /// - Returns: false when the `layers` contract forbids the use.
    public func mayUse(_ dependency: Layer) -> Bool {
        switch (self, dependency) {
        case (.test, _), (.other, _), (_, .other): true
        case (.interface, let used): used == .interface
        case (.support, let used): used == .support
        case (.module, let used): used == .interface || used == .support || used == .module
        case (.app, let used): used != .test
        }
    }

    private var rank: Int {
        switch self {
        case .interface: 0
        case .support: 1
        case .module: 2
        case .app: 3
        case .test: 4
        case .other: 5
        }
    }

    /// Orders layers bottom (interface, support) to top (test), for listings;
    /// which layer may use which is ``mayUse(_:)``.
    public static func < (lhs: Layer, rhs: Layer) -> Bool {
        lhs.rank < rhs.rank
    }
}
