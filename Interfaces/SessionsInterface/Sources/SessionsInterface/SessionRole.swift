/// Which refresh family a session belongs to (docs/protocol.md, "Sessions and
/// families"): the daemon's parent session or the CLI's child session.
///
/// The two families are refreshed by different programs and must never be
/// mixed up: the CLI refreshes only the child family, the daemon only the
/// parent family, so the two refreshing at the same moment never trigger
/// reuse detection. Everything that is kept per
/// family (the keychain item, the cross-process refresh lock) is named after
/// the role, so one role's code never reaches the other's.
public enum SessionRole: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The parent session the daemon (the containing app) holds, made by
    /// login with `client_component` `app`.
    case parent = "app"
    /// The child session of the `share` CLI (the share extension), made by
    /// the daemon through createExtensionSession with `client_component` `share_ext`.
    case child = "share_ext"

    /// The `client_component` the server knows the session by.
    public var clientComponent: String { rawValue }

    /// `parent (app)` or `child (share_ext)`, for messages.
    public var description: String {
        switch self {
        case .parent: return "parent (app)"
        case .child: return "child (share_ext)"
        }
    }
}
