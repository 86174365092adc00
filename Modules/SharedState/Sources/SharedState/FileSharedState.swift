import Foundation
import ShareKitCore
import ShareKitSecureFiles
public import ShareKitSharedStateInterface

/// The key-value state of the app group in one JSON file, `state.json`, in
/// the container directory.
///
/// Every read-modify-write runs under an exclusive `flock` on
/// `state.json.lock` and replaces the file atomically (temporary file, fsync,
/// rename, fsync of the directory); reads take the lock shared. So writers in
/// any number of processes never lose an update, and a reader never sees a
/// half-written file.
///
/// Keys come only from the allow-list (``SharedStateKey``); a value holds at
/// most ``maximumValueBytes`` bytes of UTF-8.
///
/// A corrupt `state.json` is never silently dropped: the first operation that
/// meets it renames it to `state.json.corrupt-<UTC time>` in the same
/// directory, throws ``SharedStateError/corruptMovedAside(path:movedTo:reason:)``
/// so the caller reports it, and the state starts empty. A file of a newer
/// version is left alone and refused with ``SharedStateError/corrupt(path:reason:)``.
public struct FileSharedState: SharedStateStore {
    /// The largest value kept, in bytes of UTF-8: the state is for small
    /// values; content goes in files of the container.
    public static let maximumValueBytes = 64 * 1024
    /// The state file's name in the directory.
    public static let fileName = "state.json"
    /// The lock file's name in the directory.
    static let lockFileName = "state.json.lock"
    /// The largest state file read.
    static let maximumFileBytes = 16 * 1024 * 1024

    /// The directory that holds `state.json` (the container's root).
    public let directory: String

    /// The state file's path.
    public var path: String { directory + "/" + Self.fileName }

    /// Makes a store over a directory; it is made 0700 on the first write
    /// when missing, and refused when insecure.
    /// - Parameter directory: the directory of `state.json`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Reads a value under a shared lock.
    /// - Parameter key: the key.
    /// - Returns: the value, or nil when unset.
    /// - Throws: ``SharedStateError``.
    public func value(for key: SharedStateKey) throws -> String? {
        try readValues()[key.name]
    }

    /// Sets or (with nil) removes a value.
    /// - Parameters:
    ///   - value: the value, at most ``maximumValueBytes``; nil removes the key.
    ///   - key: the key.
    /// - Throws: ``SharedStateError/valueTooLarge(key:bytes:limit:)`` or another ``SharedStateError``.
    public func set(_ value: String?, for key: SharedStateKey) throws {
        try update(key) { _ in value }
    }

    /// Reads, transforms and writes one value under the exclusive lock; the
    /// file is rewritten only when the value changes.
    /// - Parameters:
    ///   - key: the key.
    ///   - transform: gets the current value, returns the new one (nil removes it).
    /// - Returns: the value written.
    /// - Throws: what `transform` throws (nothing is written then), or ``SharedStateError``.
    @discardableResult
    public func update(_ key: SharedStateKey, _ transform: (String?) throws -> String?) throws -> String? {
        try SecureFileError.translating(into: SharedStateError.init) {
            // With `create`, opening returns a directory or throws; never nil.
            guard let container = try openDirectory(create: true) else { return nil }
            return try container.withLock(file: Self.lockFileName, exclusive: true) {
                var values = try load(container, exclusive: true) ?? [:]
                let old = values[key.name]
                let new = try transform(old)
                if let new, new.utf8.count > Self.maximumValueBytes {
                    throw SharedStateError.valueTooLarge(
                        key: key.name, bytes: new.utf8.count, limit: Self.maximumValueBytes)
                }
                guard new != old else { return new }
                values[key.name] = new
                container.removeStaleTemporaryFiles(of: Self.fileName)
                try container.replaceFile(Self.fileName, with: StateFile.encode(values))
                return new
            }
        }
    }

    /// Every key and value, read under a shared lock.
    /// - Returns: the state.
    /// - Throws: ``SharedStateError``.
    public func snapshot() throws -> [String: String] {
        try readValues()
    }

    /// Moves the values of retired keys out: a shared-lock look first (the
    /// usual case finds none and writes nothing), then, under the exclusive
    /// lock, `move` and the rewrite without them.
    /// - Parameter move: gets the retired values by key name.
    /// - Returns: whether anything was moved.
    /// - Throws: what `move` throws (nothing is written then), or ``SharedStateError``.
    @discardableResult
    public func takeRetiredValues(_ move: ([String: String]) throws -> Void) throws -> Bool {
        try SecureFileError.translating(into: SharedStateError.init) {
            guard let container = try openDirectory(create: false) else { return false }
            let any = try container.withLock(file: Self.lockFileName, exclusive: false) { () -> Bool in
                // A corrupt file is the next ordinary operation's to move aside and report.
                guard let values = try? load(container, exclusive: false) else { return false }
                return values.keys.contains(where: SharedStateKey.isRetired)
            }
            guard any else { return false }
            return try container.withLock(file: Self.lockFileName, exclusive: true) {
                guard var values = try? load(container, exclusive: false) else { return false }
                let retired = values.filter { SharedStateKey.isRetired($0.key) }
                guard !retired.isEmpty else { return false }
                try move(retired)
                for name in retired.keys { values[name] = nil }
                container.removeStaleTemporaryFiles(of: Self.fileName)
                try container.replaceFile(Self.fileName, with: StateFile.encode(values))
                return true
            }
        }
    }

    // MARK: - Reading

    /// Reads the whole state under a shared lock; a corrupt file is handed to
    /// the exclusive path, which moves it aside.
    private func readValues() throws -> [String: String] {
        try SecureFileError.translating(into: SharedStateError.init) {
            guard let container = try openDirectory(create: false) else { return [:] }
            let shared = try container.withLock(file: Self.lockFileName, exclusive: false) {
                () -> [String: String]? in
                try load(container, exclusive: false)
            }
            if let shared { return shared }
            // Corrupt: take the lock exclusively and look again, since another
            // process may have moved the file aside meanwhile.
            return try container.withLock(file: Self.lockFileName, exclusive: true) {
                try load(container, exclusive: true) ?? [:]
            }
        }
    }

    /// Loads the values; with the exclusive lock held, moves a corrupt file aside.
    /// - Returns: the values; nil for a corrupt file found under a shared
    ///   lock (only the exclusive lock may move it aside, so the caller
    ///   takes that and looks again). Never nil when `exclusive`.
    /// - Throws: ``SharedStateError`` for a file of a newer version, or a
    ///   corrupt one, moved aside.
    private func load(_ container: SecureDirectory, exclusive: Bool) throws -> [String: String]? {
        let found = try container.readFile(Self.fileName, limit: Self.maximumFileBytes)
        let problem: String
        switch found {
        case .missing: return [:]
        case .tooLarge: problem = "larger than \(Self.maximumFileBytes) bytes"
        case .bytes(let bytes):
            switch StateFile.decode(bytes) {
            case .values(let values): return values
            case .unsupportedVersion(let version):
                throw SharedStateError.corrupt(
                    path: path,
                    reason: "version \(version) was written by a newer program; "
                        + "this one reads version \(StateFile.currentVersion)")
            case .corrupt(let reason): problem = reason
            }
        }
        guard exclusive else { return nil }
        let movedTo = try container.moveAside(Self.fileName, toFirstFreeOf: Self.quarantineNames())
        throw SharedStateError.corruptMovedAside(path: path, movedTo: directory + "/" + movedTo, reason: problem)
    }

    /// `state.json.corrupt-<UTC time to the millisecond>`, then the same with `-2`, `-3`, ….
    /// The time is RFC 3339 in its basic form (`20261201T030000.250Z`):
    /// without `-` and `:`, which some file systems and tools dislike in names.
    private static func quarantineNames() -> [String] {
        let stamp = RFC3339.string(UnixClock.system.date(), precision: .milliseconds)
            .filter { $0 != "-" && $0 != ":" }
        let base = fileName + ".corrupt-" + stamp
        return [base] + (2...100).map { base + "-\($0)" }
    }

    private func openDirectory(create: Bool) throws -> SecureDirectory? {
        try SecureDirectory.openBase(directory, create: create)
    }
}
