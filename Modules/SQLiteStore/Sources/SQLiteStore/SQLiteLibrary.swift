import CShareKitSQLite
import CShareKitSQLiteLoader
import ShareKitSQLInterface

/// Facts about the SQLite library this process loads.
public enum SQLiteLibrary {
    /// The version string of the loaded libsqlite3, e.g. `3.40.1`, for `--version` and bug reports; when the
    /// library cannot be loaded, `unavailable (libsqlite3 could not be loaded: ... (install the Debian package
    /// libsqlite3-0))`.
    public static var version: String {
        if let loadFailure { return "unavailable (\(loadFailure))" }
        return String(cString: sqlite3_libversion())
    }

    /// Why libsqlite3 cannot be loaded, nil when it is open. Asked before the first SQLite call of a
    /// connection, so that a host without SQLite gets an error it can handle instead of the wrappers' exit
    /// with status 127 (a library never ends its host).
    static let loadFailure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard sk_sqlite_library_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Throws when libsqlite3 cannot be loaded.
    /// - Throws: ``ShareKitSQLInterface/SQLError/io(code:message:)`` with `SQLITE_CANTOPEN` and the loader's message,
    ///   which names the Debian package to install.
    static func requireLoaded() throws {
        if let loadFailure { throw SQLError.io(code: SQLITE_CANTOPEN, message: loadFailure) }
    }
}
