import ShareKitDaemonControl
public import ShareKitDaemonControlInterface
import ShareKitSharedStateInterface

/// Where `share-daemon` listens for local requests (`share status`, the
/// wake-up after `share send --queue`), and both sides of the socket as
/// interfaces: `share` asks through ``daemonControl()``, `share-daemon`
/// answers through ``listenForDaemonControl(at:limits:handler:)``.
///
/// The socket lives in the runtime directory: `SHAREKIT_RUNTIME_DIR` when
/// set; else, for a container chosen with `SHAREKIT_CONTAINER_DIR`, its
/// `run` folder (so two app groups on one machine never share a daemon);
/// else `$XDG_RUNTIME_DIR/sharekit`; else the default container's `run` folder.
extension ClientAssembly {
    /// The runtime directory of this environment and container.
    public var daemonRuntimeDirectory: String {
        if let dir = environment["SHAREKIT_RUNTIME_DIR"], !dir.isEmpty { return dir }
        if environment["SHAREKIT_CONTAINER_DIR"]?.isEmpty == false { return container.rootPath + "/run" }
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty { return dir + "/sharekit" }
        return container.rootPath + "/run"
    }

    /// The control socket's path (`daemon.sock` in ``daemonRuntimeDirectory``).
    public var daemonSocketPath: String { daemonRuntimeDirectory + "/daemon.sock" }

    /// The CLI's client of the control socket at ``daemonSocketPath``.
    /// - Returns: the client.
    public func daemonControl() -> any DaemonControlling {
        UnixDaemonControl(path: daemonSocketPath)
    }

    /// Listens on the control socket for share-daemon until the result is closed.
    /// - Parameters:
    ///   - path: the socket's path (``daemonSocketPath`` unless the daemon was told another).
    ///   - limits: the deadline of a connection and how many are served at once.
    ///   - handler: what the daemon does for each request.
    /// - Returns: the listening socket.
    /// - Throws: ``ShareKitDaemonControlInterface/DaemonControlError/cannotListen(_:)``
    ///   when another daemon listens there or the socket cannot be made.
    public func listenForDaemonControl(
        at path: String, limits: DaemonControlLimits, handler: any DaemonControlHandling
    ) throws(DaemonControlError) -> any DaemonControlListening {
        try UnixControlSocket(path: path, limits: limits, handler: handler)
    }
}
