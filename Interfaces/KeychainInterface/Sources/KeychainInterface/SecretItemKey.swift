/// The address of one secret item, as on an iOS shared keychain group:
/// access group, service, account, and the server scope it belongs to.
///
/// Every program of an access group can read every item in it; items are
/// never synchronized off this device.
public struct SecretItemKey: Hashable, Sendable, CustomStringConvertible {
    /// The group of programs that share the item (the app-group identifier).
    public var accessGroup: String
    /// What kind of secret this is, e.g. `dpop.device-key` or `session.child`.
    public var service: String
    /// Whose secret it is, e.g. a username or `default`.
    public var account: String
    /// The server the item belongs to (an origin), or empty for device-wide items.
    public var scope: String

    /// Makes a key.
    public init(accessGroup: String, service: String, account: String = "default", scope: String = "") {
        self.accessGroup = accessGroup
        self.service = service
        self.account = account
        self.scope = scope
    }

    /// Names the item without its value, safe for error messages.
    public var description: String {
        "\(accessGroup)/\(service)/\(account)" + (scope.isEmpty ? "" : "@\(scope)")
    }
}
