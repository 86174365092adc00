import CShareKitSecret
public import ShareKitKeychainInterface

/// The freedesktop Secret Service backend (gnome-keyring, KeePassXC, …)
/// through libsecret, for desktop sessions that run one.
///
/// Items carry the schema ``schemaName`` with the string attributes
/// `access_group`, `service`, `account` and `scope`, and are stored in the
/// default collection (`login` on gnome-keyring) as binary values. Values
/// never appear in errors; a backend error carries only the service's message.
///
/// The calls are libsecret's synchronous ones: each runs its own main-loop
/// iteration, so they may be made from any thread.
public final class SecretServiceKeychain: SecretStore, @unchecked Sendable {
    // @unchecked: the only state is the schema, built once in init and never
    // mutated; libsecret reads it from any thread.

    /// The schema name the items carry (the `xdg:schema` attribute).
    public static let schemaName = "org.sharekit.SecretItem"
    /// The largest value stored, in bytes, as for the file store.
    public static let maximumValueBytes = 64 * 1024

    /// libsecret's schema (opaque here: libsecret makes and frees it).
    private let schema: OpaquePointer

    /// Connects to the Secret Service of the session bus.
    /// - Throws: ``KeychainError/backendUnavailable(_:)`` when libsecret
    ///   cannot be loaded (it is opened here, on first use), there is no
    ///   session bus, or nothing on it provides `org.freedesktop.secrets`.
    public init() throws {
        try Self.loadLibrary()
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, nil, &error) else {
            throw KeychainError.backendUnavailable("Secret Service: \(Self.consume(error))")
        }
        g_object_unref(UnsafeMutableRawPointer(service))
        let types = GLibStrings.table(freeValues: false)
        defer { g_hash_table_unref(types) }
        for name in ["access_group", "service", "account", "scope"] {
            // The value is GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING), which is 0: a null pointer.
            g_hash_table_insert(types, UnsafeMutableRawPointer(g_strdup(name)), nil)
        }
        schema = secret_schema_newv(Self.schemaName, SECRET_SCHEMA_NONE, types)
    }

    deinit { secret_schema_unref(schema) }

    /// Reads one item.
    /// - Parameter key: the item.
    /// - Returns: the value, or nil when there is no such item.
    /// - Throws: ``KeychainError/backendFailed(operation:reason:)``.
    public func read(_ key: SecretItemKey) throws -> SecretValue? {
        let attributes = GLibStrings.attributes(for: key)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let found = secret_password_lookupv_binary_sync(schema, attributes, nil, &error)
        if let error { throw KeychainError.backendFailed(operation: "read \(key)", reason: Self.consume(error)) }
        guard let found else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(found)) }
        var length = 0
        guard let bytes = secret_value_get(found, &length) else { return SecretValue(bytes: []) }
        return SecretValue(bytes: Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    }

    /// Writes one item, replacing the item with the same attributes.
    /// - Parameters:
    ///   - value: the secret, at most ``maximumValueBytes``.
    ///   - key: the item.
    /// - Throws: ``KeychainError/valueTooLarge(_:bytes:limit:)`` or
    ///   ``KeychainError/backendFailed(operation:reason:)``.
    public func write(_ value: SecretValue, for key: SecretItemKey) throws {
        guard value.count <= Self.maximumValueBytes else {
            throw KeychainError.valueTooLarge(key, bytes: value.count, limit: Self.maximumValueBytes)
        }
        let attributes = GLibStrings.attributes(for: key)
        defer { g_hash_table_unref(attributes) }
        // secret_value_new copies the bytes; the copy is wiped when freed.
        let secret = value.withBytes { bytes in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    secret_value_new($0.baseAddress, $0.count, "application/octet-stream")
                }
            }
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(secret)) }
        var error: UnsafeMutablePointer<GError>?
        let stored = secret_password_storev_binary_sync(
            schema, attributes, "default", "ShareKit \(key)", secret, nil, &error)
        if stored == 0 || error != nil {
            throw KeychainError.backendFailed(operation: "write \(key)", reason: Self.consume(error))
        }
    }

    /// Deletes one item; a missing item is fine.
    /// - Parameter key: the item.
    /// - Throws: ``KeychainError/backendFailed(operation:reason:)``.
    public func delete(_ key: SecretItemKey) throws {
        let attributes = GLibStrings.attributes(for: key)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        _ = secret_password_clearv_sync(schema, attributes, nil, &error)
        if let error { throw KeychainError.backendFailed(operation: "delete \(key)", reason: Self.consume(error)) }
    }

    /// Lists the items of an access group from their attributes, without
    /// unlocking or loading any secret.
    /// - Parameter accessGroup: the group.
    /// - Returns: the keys, sorted by service, account and scope.
    /// - Throws: ``KeychainError/backendFailed(operation:reason:)``.
    public func keys(accessGroup: String) throws -> [SecretItemKey] {
        let attributes = GLibStrings.table(freeValues: true)
        defer { g_hash_table_unref(attributes) }
        GLibStrings.insert(attributes, "access_group", accessGroup)
        var error: UnsafeMutablePointer<GError>?
        let list = secret_password_searchv_sync(schema, attributes, SECRET_SEARCH_ALL, nil, &error)
        if let error {
            throw KeychainError.backendFailed(operation: "list \(accessGroup)", reason: Self.consume(error))
        }
        defer { g_list_free_full(list, g_object_unref) }
        var keys: [SecretItemKey] = []
        var node = list
        while let current = node {
            if let item = current.pointee.data, let found = secret_retrievable_get_attributes(OpaquePointer(item)) {
                let service = GLibStrings.lookup(found, "service")
                let account = GLibStrings.lookup(found, "account")
                let scope = GLibStrings.lookup(found, "scope")
                g_hash_table_unref(found)
                if let service, !service.isEmpty {
                    keys.append(
                        SecretItemKey(
                            accessGroup: accessGroup, service: service, account: account ?? "", scope: scope ?? ""))
                }
            }
            node = current.pointee.next
        }
        return keys.sorted { ($0.service, $0.account, $0.scope) < ($1.service, $1.account, $1.scope) }
    }

    /// Opens libsecret (with GIO, GObject and GLib) unless it is open, so
    /// that a missing library makes this backend unavailable with the
    /// dynamic loader's reason instead of ending the program at the first
    /// call.
    /// - Throws: ``KeychainError/backendUnavailable(_:)`` naming libsecret.
    private static func loadLibrary() throws {
        var message = [CChar](repeating: 0, count: 512)
        guard sk_secret_library_load(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw KeychainError.backendUnavailable("Secret Service: \(reason)")
        }
    }

    /// Takes a GError's message and frees it.
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
