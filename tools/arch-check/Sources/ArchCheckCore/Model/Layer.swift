/// The architectural layer of a target, given by where its sources lie.
///
/// Apps → Modules → Interfaces: each layer may use the ones to its right,
/// never the ones to its left. Tests sit above everything and may use
/// anything; nothing but tests may use them.
public enum Layer: String, Sendable, Codable, Comparable, CaseIterable {
    /// Sources under `Interfaces/`: protocols and value types.
    case interface
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
        case .module: "Modules/"
        case .app: "Apps/"
        case .test: "Tests/"
        case .other: "outside the four layer folders"
        }
    }

    private var rank: Int {
        switch self {
        case .interface: 0
        case .module: 1
        case .app: 2
        case .test: 3
        case .other: 4
        }
    }

    /// Orders layers bottom (interface) to top (test).
    public static func < (lhs: Layer, rhs: Layer) -> Bool {
        lhs.rank < rhs.rank
    }
}
