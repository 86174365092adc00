/// The kind of a SwiftPM target, as `dump-package` spells it in `"type"`.
public enum TargetType: String, Sendable, Codable, CaseIterable {
    /// `.target`: a library target.
    case regular
    /// `.executableTarget`.
    case executable
    /// `.testTarget`.
    case test
    /// `.systemLibrary`: a C library reached through a module map (a C shim).
    case system
    /// `.binaryTarget`.
    case binary
    /// `.plugin`.
    case plugin
    /// `.macro`.
    case macro

    /// Whether the target has Swift sources the checker should read.
    var hasSwiftSources: Bool {
        switch self {
        case .regular, .executable, .test, .plugin, .macro: true
        case .system, .binary: false
        }
    }

    /// The folder SwiftPM looks in when the manifest gives no `path`.
    var defaultParentDirectory: String {
        switch self {
        case .test: "Tests"
        case .plugin: "Plugins"
        default: "Sources"
        }
    }
}
