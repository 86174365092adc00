import ShareKitSecureFiles
public import ShareKitSharedStateInterface

/// Named cross-process locks: an exclusive `flock` on `<directory>/<name>.lock`
/// (the container's `locks/`).
///
/// The lock belongs to an open file description, so it excludes other
/// processes and other threads of this one alike, and the kernel releases it
/// when the holder exits or dies. Lock files stay in place after use:
/// deleting one while another process waits on it would let two holders in.
public struct ContainerLock: CrossProcessLocking {
    /// The directory of the lock files (made 0700 when missing).
    public let directory: String

    /// Makes the locks of a directory; nothing is touched until a lock is taken.
    /// - Parameter directory: the directory of the lock files, usually
    ///   ``SharedContainerDirectory/locksPath``.
    public init(directory: String) {
        self.directory = directory
    }

    /// Runs `body` holding the lock, blocking the calling thread until it is free.
    /// - Parameters:
    ///   - name: the lock, 1 to 100 of `A-Z a-z 0-9 . - _`, not starting with `.`.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns.
    /// - Throws: ``SharedStateError/invalidLockName(_:)``, a refusal of an
    ///   unsafe directory or lock file, or what `body` throws.
    public func withExclusiveLock<T>(named name: String, _ body: () throws -> T) throws -> T {
        let lock = try open(name)
        _ = try acquire(lock, wait: true)
        return try withExtendedLifetime(lock) { try body() }
    }

    /// Runs `body` only when the lock is free right now.
    /// - Parameters:
    ///   - name: the lock.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns, or nil when the lock is busy.
    /// - Throws: ``SharedStateError/invalidLockName(_:)``, a refusal of an
    ///   unsafe directory or lock file, or what `body` throws.
    public func withExclusiveLockIfAvailable<T>(named name: String, _ body: () throws -> T) throws -> T? {
        let lock = try open(name)
        guard try acquire(lock, wait: false) else { return nil }
        return try withExtendedLifetime(lock) { try body() }
    }

    /// Runs async `body` holding the lock, trying it every `interval` while it
    /// is busy, so no thread is blocked while waiting.
    /// - Parameters:
    ///   - name: the lock.
    ///   - interval: the pause between tries.
    ///   - isolation: the caller's actor, inherited by `body`.
    ///   - body: the work to do while holding it.
    /// - Returns: what `body` returns.
    /// - Throws: ``SharedStateError``, `CancellationError` while waiting, or what `body` throws.
    public func withExclusiveLock<T>(
        named name: String, pollingEvery interval: Duration, isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        let lock = try open(name)
        while try !acquire(lock, wait: false) {
            try await Task.sleep(for: interval)
        }
        let result = try await body()
        withExtendedLifetime(lock) {}
        return result
    }

    /// Opens (making when missing) and checks the lock file of a name.
    private func open(_ name: String) throws -> Descriptor {
        guard Self.isValidName(name) else { throw SharedStateError.invalidLockName(name) }
        return try SecureFileError.translating(into: SharedStateError.init) {
            guard let locks = try SecureDirectory.openBase(directory, create: true) else {
                // With `create`, opening returns a directory or throws; never nil.
                throw SharedStateError.invalidLockName(name)
            }
            return try locks.openLockFile(name + ".lock")
        }
    }

    /// Takes the lock exclusively.
    /// - Returns: true when held; false only without `wait`, when it is busy.
    private func acquire(_ lock: Descriptor, wait: Bool) throws -> Bool {
        try SecureFileError.translating(into: SharedStateError.init) { try lock.lock(exclusive: true, wait: wait) }
    }

    /// 1 to 100 of `A-Z a-z 0-9 . - _`, not starting with `.`: always one
    /// plain file name, never a path.
    static func isValidName(_ name: String) -> Bool {
        guard (1...100).contains(name.utf8.count), !name.hasPrefix(".") else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }
}
