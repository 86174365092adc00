import Foundation
public import ShareKitIntakeInterface
import Synchronization

/// The freedesktop shared MIME database as a ``ContentTypeCatalog``: the
/// Linux counterpart of UTType conformance.
///
/// Built from each `mime` directory under the XDG data directories: its
/// binary `mime.cache` (written by `update-mime-database`; read, never
/// parsed, range-checked as a hostile file) when that is valid and not
/// older than the directory's XML sources, else the XML sources
/// (`mime/packages/*.xml`) parsed with libxml2. Both carry what intake
/// needs: `sub-class-of` relations, aliases and globs. A directory list is
/// loaded once per process; every catalog made for it afterwards shares it.
///
/// Conformance is reflexive and transitive over `sub-class-of` (parents
/// named by an alias count as their canonical type), plus the
/// specification's implicit rules: every `text/*` type is a `text/plain`,
/// and everything except `inode/*` is an `application/octet-stream`.
public struct FreedesktopMIMECatalog: ContentTypeCatalog, ContentTypeHierarchy {
    let database: MIMEDatabase

    /// Every database parsed in this process, by its directory list.
    private static let cache = Mutex<[[String]: MIMEDatabase]>([:])

    /// Loads the database from the XDG data directories of this process
    /// (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`, each with `mime/packages`).
    /// - Throws: ``IntakeError/mimeDatabaseNotFound(searched:)`` when no directory
    ///   holds the database, ``IntakeError/mimeDatabaseUnreadable(paths:)`` when
    ///   none of its files parses.
    public init() throws(IntakeError) {
        try self.init(environment: ProcessInfo.processInfo.environment)
    }

    /// Loads the database from the XDG data directories `environment` names.
    /// - Parameter environment: variables like `XDG_DATA_DIRS`, `XDG_DATA_HOME` and `HOME`.
    /// - Throws: as ``init()``.
    public init(environment: [String: String]) throws(IntakeError) {
        try self.init(packageDirectories: Self.searchDirectories(environment: environment))
    }

    /// The `mime/packages` directories searched for `environment`, most important first.
    public static func searchDirectories(environment: [String: String]) -> [String] {
        MIMEDatabaseLoader.searchDirectories(environment: environment)
    }

    /// Loads the database of the given `packages` directories: each one's
    /// `mime.cache` in its parent directory when it is valid and up to date,
    /// else its XML files.
    /// - Parameter packageDirectories: directories like
    ///   `/usr/share/mime/packages`, most important first; missing ones are skipped.
    /// - Throws: ``IntakeError/mimeDatabaseNotFound(searched:)`` when none has a
    ///   valid cache or an XML file defining a type,
    ///   ``IntakeError/mimeDatabaseUnreadable(paths:)`` when XML files were found
    ///   (and no cache) but none of them parses.
    public init(packageDirectories: [String]) throws(IntakeError) {
        let result: Result<MIMEDatabase, IntakeError> = Self.cache.withLock { cache in
            if let database = cache[packageDirectories] { return .success(database) }
            do throws(IntakeError) {
                let database = try MIMEDatabaseLoader.load(directories: packageDirectories)
                cache[packageDirectories] = database
                return .success(database)
            } catch {
                return .failure(error)
            }
        }
        database = try result.get()
    }

    /// The directories the database was read from, most important first.
    public var directories: [String] { database.directories }

    /// The canonical name (aliases resolved, lowercase, no parameters).
    public func canonical(_ contentType: String) -> String { database.canonical(contentType) }

    /// Whether `contentType` is `other` or conforms to it, transitively.
    public func conforms(_ contentType: String, to other: String) -> Bool {
        let target = canonical(other)
        guard !target.isEmpty else { return false }
        return supertypes(of: contentType).contains(target)
    }

    /// The types a file name suggests, best first, canonical and without duplicates.
    public func contentTypes(forFileName fileName: String) -> [String] {
        var seen: Set<String> = []
        return database.contentTypes(forFileName: fileName).map(canonical).filter { seen.insert($0).inserted }
    }

    /// Whether the database defines the type (or an alias of it).
    public func isKnown(_ contentType: String) -> Bool { database.isKnown(canonical(contentType)) }

    /// The type and every type it conforms to, nearest first (breadth
    /// first over `sub-class-of`, then the implicit `text/plain`, with
    /// `application/octet-stream` last).
    public func supertypes(of contentType: String) -> [String] { database.supertypes(of: contentType) }

    /// The first `*.ext` glob of the type (`png` for `image/png`), for
    /// naming a file that came without a name; nil when it has none.
    public func preferredExtension(for contentType: String) -> String? {
        database.preferredExtension(for: canonical(contentType))
    }
}
