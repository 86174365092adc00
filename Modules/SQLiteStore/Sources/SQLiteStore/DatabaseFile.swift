import CShareKitSQLite
import ShareKitSQLInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes sure the database file exists, is a regular file and is readable
/// by its owner only, before SQLite opens it.
///
/// SQLite creates a new file as 0644 (less the umask) and gives the `-wal`
/// and `-shm` files the mode of the database file, so creating it as 0600
/// first keeps all three private: the server's database holds sessions.
enum DatabaseFile {
    /// The mode of the database and its companion files.
    static let mode: mode_t = 0o600

    /// Creates the file as 0600 when missing; tightens an existing one (and
    /// its `-wal`, `-shm`, `-journal` files) to 0600. Never follows a symbolic link.
    /// - Parameter path: the database file.
    /// - Throws: ``SQLError/io(code:message:)`` naming the path and the cause
    ///   (a missing directory, a directory or link in the way), or
    ///   ``SQLError/readOnly(message:)`` on a read-only file system.
    static func prepare(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw openError(path, errno: errno) }
        defer { close(descriptor) }
        try tighten(descriptor, path)
        for suffix in ["-wal", "-shm", "-journal"] {
            let companion = open(path + suffix, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard companion >= 0 else { continue }  // absent is the usual case
            defer { close(companion) }
            try tighten(companion, path + suffix)
        }
    }

    private static func tighten(_ descriptor: Int32, _ path: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("cannot inspect", path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SQLError.io(code: SQLITE_CANTOPEN, message: "cannot open database \(path): not a regular file")
        }
        if info.st_mode & 0o7777 != mode, fchmod(descriptor, mode) != 0 {
            throw failure("cannot make private (mode 600)", path, errno: errno)
        }
    }

    private static func openError(_ path: String, errno code: Int32) -> SQLError {
        switch code {
        case ENOENT:
            let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            return .io(
                code: SQLITE_CANTOPEN,
                message: "cannot open database \(path): the directory \(directory.isEmpty ? "/" : directory) "
                    + "does not exist; create it first")
        case ELOOP:
            return .io(
                code: SQLITE_CANTOPEN,
                message: "cannot open database \(path): it is a symbolic link, which is not followed")
        case EROFS:
            return .readOnly(message: "cannot open database \(path) for writing: read-only file system")
        default:
            return failure("cannot open database", path, errno: code)
        }
    }

    private static func failure(_ what: String, _ path: String, errno code: Int32) -> SQLError {
        .io(code: SQLITE_CANTOPEN, message: "\(what) \(path): \(String(cString: strerror(code))) (errno \(code))")
    }
}
