import Foundation
public import ShareKitKeychainInterface
public import ShareKitPushPreviewInterface
import ShareKitServerAPIInterface

/// Push registrations in the keychain's shared access group, one item per
/// instance (service `push.registration`, scope `host:port`): the preview
/// token and registration id live here and nowhere else.
public struct KeychainPushRegistrations: PushRegistrationStoring {
    /// The items' service name.
    public static let service = "push.registration"

    private let store: any SecretStore
    private let accessGroup: String

    /// Makes the store.
    /// - Parameters:
    ///   - store: the keychain.
    ///   - accessGroup: the shared access group (`sharekit`).
    public init(store: any SecretStore, accessGroup: String) {
        self.store = store
        self.accessGroup = accessGroup
    }

    /// The item of an instance.
    public func key(instance: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: Self.service, scope: instance)
    }

    /// The registration of an instance, or nil.
    /// - Throws: `KeychainError` when the item cannot be read or is corrupt.
    public func registration(instance: String) throws -> PushRegistration? {
        let key = key(instance: instance)
        guard let value = try store.read(key) else { return nil }
        guard let item = value.withBytes({ try? APIJSON.decode(StoredRegistration.self, from: Array($0)) }) else {
            throw KeychainError.corruptItem(key)
        }
        return PushRegistration(
            origin: item.origin, registrationID: item.registrationID, previewToken: item.previewToken,
            pushToken: item.pushToken, sessionID: item.sessionID)
    }

    /// Stores the registration of an instance.
    /// - Throws: `KeychainError` when the item cannot be written.
    public func store(_ registration: PushRegistration, instance: String) throws {
        let item = StoredRegistration(
            origin: registration.origin, registrationID: registration.registrationID,
            previewToken: registration.previewToken, pushToken: registration.pushToken,
            sessionID: registration.sessionID)
        try store.write(SecretValue(bytes: try APIJSON.encode(item)), for: key(instance: instance))
    }

    /// Deletes the registration of an instance.
    /// - Throws: `KeychainError` when the item cannot be deleted.
    public func delete(instance: String) throws {
        try store.delete(key(instance: instance))
    }
}

/// The keychain item of a push registration: the registration with its
/// preview token, as one JSON object.
private struct StoredRegistration: Codable {
    var origin: String
    var registrationID: String
    var previewToken: String
    var pushToken: String
    /// Absent in items an earlier version stored.
    var sessionID: String?

    enum CodingKeys: String, CodingKey {
        case origin
        case registrationID = "registration_id"
        case previewToken = "preview_token"
        case pushToken = "push_token"
        case sessionID = "session_id"
    }
}
