import Foundation
import ShareKitAppSupport
import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSQLiteStore

/// Where the server keeps its state, as `--db` names it: a libpq
/// connection URI (`postgresql://…` or `postgres://…`) is a PostgreSQL
/// database; anything else is the path of a SQLite file.
enum ServerDatabase: Equatable {
    /// A SQLite file (created if missing when serving, with its missing folders, 0700).
    case sqlite(path: String)
    /// A PostgreSQL database, by its libpq connection URI.
    case postgresql(uri: String)

    /// Reads the value of `--db`.
    /// - Parameter argument: a path or a `postgresql://` / `postgres://` URI.
    init(_ argument: String) {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            self = .postgresql(uri: argument)
        } else {
            self = .sqlite(path: argument)
        }
    }

    /// The database for messages and logs: a URI with its password replaced
    /// by `***` (in the user part and in a `password=` parameter).
    var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgresql(let uri): return Self.redact(uri)
        }
    }

    /// Opens the database for serving.
    /// - Parameters:
    ///   - readers: SQLite's reading connections.
    ///   - lockTimeout: how long a statement waits for a lock another
    ///     connection holds (SQLite's busy timeout, PostgreSQL's
    ///     `lock_timeout`); nil for the store's default.
    /// - Returns: the open database.
    /// - Throws: a `ProgramError` naming the (redacted) database and the cause.
    func open(readers: Int, lockTimeout: Duration? = nil) throws -> any SQLDatabase {
        switch self {
        case .sqlite(let path):
            // The README's `--db /tmp/sk/server.db` on a machine without
            // /tmp/sk: the folders are made, private as the database is.
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, let unmade = PrivateFolders.make(folder) {
                throw ProgramError("cannot make the folder \(unmade.path) for the database: \(unmade.reason)")
            }
            var configuration = SQLiteConfiguration(readers: readers)
            if let lockTimeout { configuration.busyTimeout = lockTimeout }
            return try SQLiteDatabase(path: path, configuration: configuration)
        case .postgresql(let uri):
            return try Self.connect(uri, redacted: redacted, lockTimeout: lockTimeout)
        }
    }

    /// Opens an existing database for `share-server admin`: a missing SQLite
    /// file is an error, not a new empty database.
    /// - Returns: the open database.
    /// - Throws: a `ProgramError` for a missing file or when PostgreSQL
    ///   cannot be reached; `SQLError` when SQLite fails.
    func openExisting() throws -> any SQLDatabase {
        switch self {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw ProgramError("no server database at \(path) (start share-server with --db \(path) first)")
            }
            return try SQLiteDatabase(path: path)
        case .postgresql(let uri):
            return try Self.connect(uri, redacted: redacted)
        }
    }

    private static func connect(_ uri: String, redacted: String, lockTimeout: Duration? = nil) throws
        -> PostgresDatabase
    {
        // Row locks, not one lock for the deployment: the server locks what
        // its decisions rest on (docs/adr/0042-row-locks-on-postgresql.md).
        var configuration = PostgresConfiguration(isolation: .rowLocks, applicationName: "share-server")
        // Every request reads its session before its transaction: on the
        // writing connection that read would commit the open commit group
        // first and keep groups at one member (docs/adr/0044-fewer-round-trips-on-postgresql.md).
        configuration.separateReadConnection = true
        if let lockTimeout { configuration.lockTimeout = lockTimeout }
        do {
            return try PostgresDatabase(connection: uri, configuration: configuration)
        } catch {
            // PostgresStore's errors never carry the password; the URI is redacted here.
            throw ProgramError("cannot use the PostgreSQL database \(redacted): \(error)")
        }
    }

    /// `uri` with the password of its user part and of a `password`
    /// parameter replaced by `***`.
    static func redact(_ uri: String) -> String {
        guard let scheme = uri.range(of: "://") else { return uri }
        var result = String(uri[..<scheme.upperBound])
        let rest = uri[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            if let colon = user.firstIndex(of: ":") {
                result += user[..<colon] + ":***"
            } else {
                result += user
            }
            result += authority[at...]
        } else {
            result += authority
        }
        var tail = String(rest[authorityEnd...])
        if let question = tail.firstIndex(of: "?") {
            let path = tail[..<question]
            let parameters = tail[tail.index(after: question)...].split(
                separator: "&", omittingEmptySubsequences: false
            )
            .map { parameter -> String in
                let name = parameter.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                return name.lowercased() == "password" ? "password=***" : String(parameter)
            }
            tail = path + "?" + parameters.joined(separator: "&")
        }
        return result + tail
    }
}
