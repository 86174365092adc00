import Foundation
import ShareKitSecureFiles
public import ShareKitSharedStateInterface

/// The app-group container: one directory shared by the CLI and the daemon.
///
/// Layout under ``rootPath`` (default `$XDG_DATA_HOME/sharekit/container`,
/// i.e. `~/.local/share/sharekit/container`):
///
/// ```
/// container/             0700
///   inbox/               0700  share inbox entries
///   locks/               0700  <name>.lock files of ``ContainerLock``
///   state.json           0600  the key-value state (``FileSharedState``)
///   state.json.lock      0600
/// ```
///
/// Making a container creates missing directories 0700 and checks the three
/// directories: owned by this user, no access for group or others, not a
/// symbolic link. Anything else is refused with a ``SharedStateError`` that
/// names the path and the fix.
public struct SharedContainerDirectory: SharedContainer {
    /// The environment variable that overrides the container directory.
    public static let directoryEnvironmentVariable = "SHAREKIT_CONTAINER_DIR"

    /// The container's root directory.
    public let rootPath: String
    /// The directory of share inbox entries.
    public var inboxPath: String { rootPath + "/inbox" }
    /// The directory of lock files.
    public var locksPath: String { rootPath + "/locks" }
    /// The key-value state, a ``FileSharedState`` in ``rootPath``.
    public var state: any SharedStateStore { FileSharedState(directory: rootPath) }
    /// The named locks, a ``ContainerLock`` over ``locksPath``.
    public var locks: any CrossProcessLocking { ContainerLock(directory: locksPath) }

    /// Opens the container, making its directories when missing.
    /// - Parameters:
    ///   - directory: the root; when nil, ``defaultDirectory(environment:)``.
    ///   - environment: the environment to read `SHAREKIT_CONTAINER_DIR`,
    ///     `XDG_DATA_HOME` and `HOME` from; nil for this process's.
    /// - Throws: ``SharedStateError/insecurePermissions(path:mode:)``,
    ///   ``SharedStateError/wrongOwner(path:owner:expected:)``,
    ///   ``SharedStateError/notARegularFile(path:)`` or ``SharedStateError/io(operation:path:errno:)``.
    public init(directory: String? = nil, environment: [String: String]? = nil) throws {
        let rootPath = directory ?? Self.defaultDirectory(environment: environment)
        try SecureFileError.translating(into: SharedStateError.init) {
            guard let root = try SecureDirectory.openBase(rootPath, create: true) else {
                // With `create`, opening returns a directory or throws; never nil.
                throw SharedStateError.notARegularFile(path: rootPath)
            }
            _ = try root.subdirectory("inbox", create: true)
            _ = try root.subdirectory("locks", create: true)
        }
        self.rootPath = rootPath
    }

    /// The container directory chosen by the environment:
    /// `$SHAREKIT_CONTAINER_DIR` when set, else `$XDG_DATA_HOME/sharekit/container`
    /// (when absolute, as the XDG specification requires), else
    /// `$HOME/.local/share/sharekit/container`.
    /// - Parameter environment: the environment variables; nil for this process's.
    /// - Returns: the path.
    public static func defaultDirectory(environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let explicit = environment[directoryEnvironmentVariable], !explicit.isEmpty { return explicit }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/sharekit/container" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/sharekit/container"
    }
}
