import CShareKitSecret
import ShareKitKeychainInterface

/// GHashTables of strings, the form libsecret's non-variadic calls take
/// attributes in (Swift cannot call the variadic ones).
enum GLibStrings {
    /// A new string-keyed table whose keys (and, with `freeValues`, values)
    /// are freed with the table.
    /// - Parameter freeValues: whether values are g_strdup'd strings to free.
    /// - Returns: the table; release with `g_hash_table_unref`.
    static func table(freeValues: Bool) -> OpaquePointer {
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, freeValues ? g_free : nil)
    }

    /// Inserts a copy of a key and a value.
    /// - Parameters:
    ///   - table: a table made by ``table(freeValues:)`` with `freeValues`.
    ///   - key: the attribute name.
    ///   - value: the attribute value.
    static func insert(_ table: OpaquePointer, _ key: String, _ value: String) {
        g_hash_table_insert(table, UnsafeMutableRawPointer(g_strdup(key)), UnsafeMutableRawPointer(g_strdup(value)))
    }

    /// Looks a string up.
    /// - Parameters:
    ///   - table: a table of strings.
    ///   - key: the attribute name.
    /// - Returns: the value, or nil when absent.
    static func lookup(_ table: OpaquePointer, _ key: String) -> String? {
        key.withCString { name in
            g_hash_table_lookup(table, name).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// The four attributes that address one item.
    /// - Parameter key: the item.
    /// - Returns: the table; release with `g_hash_table_unref`.
    static func attributes(for key: SecretItemKey) -> OpaquePointer {
        let table = table(freeValues: true)
        insert(table, "access_group", key.accessGroup)
        insert(table, "service", key.service)
        insert(table, "account", key.account)
        insert(table, "scope", key.scope)
        return table
    }
}
