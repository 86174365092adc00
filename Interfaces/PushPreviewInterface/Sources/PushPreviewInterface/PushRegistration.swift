/// A push registration of this device at one instance, as registerPush
/// answered it. The preview token is a credential: it lives only in the
/// keychain and never prints.
public struct PushRegistration: Sendable, Equatable, CustomStringConvertible {
    /// The server's origin (`http://host:port`) the preview is fetched from.
    public var origin: String
    /// The registration's id (for unregisterPush).
    public var registrationID: String
    /// The preview token (getPushPreview's `Authorization: DPoP <token>`).
    public var previewToken: String
    /// The device's push token the registration was made for; a new one means registering again.
    public var pushToken: String
    /// The app's session (its `ses_` id) the registration was made with: the
    /// server ends the registration with that session, so another session
    /// means registering again. Nil when not known (a registration stored by
    /// an earlier version), which counts as another session.
    public var sessionID: String?

    /// Makes a registration.
    public init(
        origin: String, registrationID: String, previewToken: String, pushToken: String, sessionID: String? = nil
    ) {
        self.origin = origin
        self.registrationID = registrationID
        self.previewToken = previewToken
        self.pushToken = pushToken
        self.sessionID = sessionID
    }

    /// Origin and registration id, never the tokens.
    public var description: String { "push registration \(registrationID) at \(origin)" }

    /// The instance id of a server origin (`b.i` of its pushes), under which
    /// its registration is stored: its authority, `host:port`, as the server derives it.
    /// - Parameter origin: the server's origin.
    /// - Returns: the instance.
    public static func instance(ofOrigin origin: String) -> String {
        var authority = Substring(origin)
        if let schemeEnd = authority.firstRange(of: "://") { authority = authority[schemeEnd.upperBound...] }
        if let slash = authority.firstIndex(of: "/") { authority = authority[..<slash] }
        return String(authority)
    }

    /// The preview fetch timeout when the shared state has no
    /// `client.push.fetch_timeout`: the notifier's default, and the value
    /// the daemon writes there.
    public static let defaultFetchTimeout: Duration = .milliseconds(5000)
}

/// Where push registrations are kept, one per instance (`b.i`, the
/// server's `host:port`): in the keychain's shared access group only.
public protocol PushRegistrationStoring: Sendable {
    /// The registration for an instance, or nil.
    /// - Throws: the keychain's error when the item cannot be read.
    func registration(instance: String) throws -> PushRegistration?
    /// Stores (replaces) the registration of an instance.
    /// - Throws: the keychain's error when the item cannot be written.
    func store(_ registration: PushRegistration, instance: String) throws
    /// Deletes the registration of an instance (nothing when there is none).
    /// - Throws: the keychain's error when the item cannot be deleted.
    func delete(instance: String) throws
}
