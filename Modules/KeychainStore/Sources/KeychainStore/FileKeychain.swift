import Foundation
public import ShareKitKeychainInterface
import ShareKitSecureFiles

/// The embedded default secret store: one file per item, one directory per
/// access group.
///
/// Layout under ``directory`` (default `$XDG_DATA_HOME/sharekit/keychain`,
/// i.e. `~/.local/share/sharekit/keychain`):
///
/// ```
/// keychain/                       0700
///   <access group>/               0700  (percent-encoded)
///     .lock                       0600  advisory flock: writers exclusive, readers shared
///     <service>~<account>~<scope>.item   0600  (each field percent-encoded)
/// ```
///
/// Every write replaces the item atomically (temporary file, fsync, rename,
/// fsync of the directory), so a reader in any process sees the old or the
/// new value, never a mix, and a crash leaves one of the two. Directories and
/// items are opened without following symbolic links and refused, with a
/// ``KeychainError`` naming the path and the fix, when they belong to
/// another user or let group or others in. Values never appear in errors.
///
/// Like an iOS keychain group, every program of the user that names the
/// access group can read its items; nothing is synchronized anywhere.
public struct FileKeychain: SecretStore {
    /// The environment variable that overrides the base directory.
    public static let directoryEnvironmentVariable = "SHAREKIT_KEYCHAIN_DIR"
    /// The largest value stored, in bytes; keys and tokens are far smaller.
    public static let maximumValueBytes = 64 * 1024
    /// The largest item file read: the value in base64 plus the key fields.
    static let maximumFileBytes = maximumValueBytes * 2 + 16 * 1024
    /// The lock file of each access group's directory.
    static let lockFileName = ".lock"

    /// The base directory that holds one directory per access group.
    public let directory: String

    /// Makes a store; nothing is touched on disk until the first operation.
    /// - Parameters:
    ///   - directory: the base directory; when nil, ``defaultDirectory(environment:)``.
    ///   - environment: the environment to read `SHAREKIT_KEYCHAIN_DIR`,
    ///     `XDG_DATA_HOME` and `HOME` from; nil for this process's.
    public init(directory: String? = nil, environment: [String: String]? = nil) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
    }

    /// The base directory chosen by the environment: `$SHAREKIT_KEYCHAIN_DIR`
    /// when set, else `$XDG_DATA_HOME/sharekit/keychain` (when absolute, as the
    /// XDG specification requires), else `$HOME/.local/share/sharekit/keychain`.
    /// - Parameter environment: the environment variables; nil for this process's.
    /// - Returns: the path.
    public static func defaultDirectory(environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let explicit = environment[directoryEnvironmentVariable], !explicit.isEmpty { return explicit }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/sharekit/keychain" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/sharekit/keychain"
    }

    /// Reads one item under a shared lock.
    /// - Parameter key: the item.
    /// - Returns: the value, or nil when there is no such item.
    /// - Throws: ``KeychainError/invalidName(_:)``, ``KeychainError/corruptItem(_:)``,
    ///   or a refusal of an unsafe directory or item.
    public func read(_ key: SecretItemKey) throws -> SecretValue? {
        let fileName = try ItemFileName.fileName(for: key)
        return try SecureFileError.translating(into: KeychainError.init) {
            guard let group = try openGroup(key.accessGroup, create: false) else { return nil }
            return try group.withLock(file: Self.lockFileName, exclusive: false) {
                switch try group.readFile(fileName, limit: Self.maximumFileBytes) {
                case .missing: return nil
                case .tooLarge: throw KeychainError.corruptItem(key)
                case .bytes(let bytes): return try ItemFile.decode(bytes, for: key)
                }
            }
        }
    }

    /// Writes one item atomically and durably under an exclusive lock.
    /// - Parameters:
    ///   - value: the secret, at most ``maximumValueBytes``.
    ///   - key: the item.
    /// - Throws: ``KeychainError/invalidName(_:)``, ``KeychainError/valueTooLarge(_:bytes:limit:)``,
    ///   a refusal of an unsafe directory or existing item, or an I/O error.
    public func write(_ value: SecretValue, for key: SecretItemKey) throws {
        let fileName = try ItemFileName.fileName(for: key)
        guard value.count <= Self.maximumValueBytes else {
            throw KeychainError.valueTooLarge(key, bytes: value.count, limit: Self.maximumValueBytes)
        }
        try SecureFileError.translating(into: KeychainError.init) {
            guard let group = try openGroup(key.accessGroup, create: true) else { return }
            try group.withLock(file: Self.lockFileName, exclusive: true) {
                // An existing item with a wrong owner or mode may already have
                // leaked; refuse rather than quietly paper over it.
                try group.checkExistingFile(fileName)
                // The group's lock covers every item, so every temporary is stale.
                group.removeAllStaleTemporaryFiles()
                try group.replaceFile(fileName, with: ItemFile.encode(value, for: key))
            }
        }
    }

    /// Deletes one item under an exclusive lock; a missing item is fine.
    ///
    /// Deleting does not check the item's owner or mode: removing a bad
    /// item is how a person recovers from it.
    /// - Parameter key: the item.
    /// - Throws: ``KeychainError/invalidName(_:)``, a refusal of an unsafe
    ///   directory, or an I/O error.
    public func delete(_ key: SecretItemKey) throws {
        let fileName = try ItemFileName.fileName(for: key)
        try SecureFileError.translating(into: KeychainError.init) {
            guard let group = try openGroup(key.accessGroup, create: false) else { return }
            try group.withLock(file: Self.lockFileName, exclusive: true) { try group.removeFile(fileName) }
        }
    }

    /// Lists the items of an access group from the file names alone, so
    /// listing reads no secret, and a corrupt item is still listed and can be
    /// deleted.
    /// - Parameter accessGroup: the group.
    /// - Returns: the keys, sorted by service, account and scope.
    /// - Throws: ``KeychainError/invalidName(_:)``, a refusal of an unsafe
    ///   directory, or an I/O error.
    public func keys(accessGroup: String) throws -> [SecretItemKey] {
        let names: [String] = try SecureFileError.translating(into: KeychainError.init) {
            guard let group = try openGroup(accessGroup, create: false) else { return [] }
            return try group.withLock(file: Self.lockFileName, exclusive: false) { try group.entryNames() }
        }
        return names.compactMap { ItemFileName.key(fromFileName: $0, accessGroup: accessGroup) }
            .sorted { ($0.service, $0.account, $0.scope) < ($1.service, $1.account, $1.scope) }
    }

    /// Lists the access groups that have a directory here.
    /// - Returns: the groups, sorted.
    /// - Throws: a refusal of an unsafe base directory, or an I/O error.
    public func accessGroups() throws -> [String] {
        let names: [String] = try SecureFileError.translating(into: KeychainError.init) {
            guard let base = try SecureDirectory.openBase(directory, create: false) else { return [] }
            return try base.entryNames()
        }
        return names.compactMap(ItemFileName.accessGroup(fromDirectoryName:)).sorted()
    }

    /// Opens the checked base directory and the group's checked directory.
    private func openGroup(_ accessGroup: String, create: Bool) throws -> SecureDirectory? {
        let name = try ItemFileName.directoryName(accessGroup: accessGroup)
        guard let base = try SecureDirectory.openBase(directory, create: create) else { return nil }
        return try base.subdirectory(name, create: create)
    }
}
