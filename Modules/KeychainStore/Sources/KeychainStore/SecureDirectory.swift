import KeychainInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory of the file keychain, opened without following symbolic
/// links and checked (owner, mode 0700) through its descriptor.
///
/// Everything inside it is reached relative to that descriptor (`openat`,
/// `renameat`, `unlinkat`), so a path swapped for a symbolic link after the
/// check cannot redirect a read or a write.
final class SecureDirectory {
    /// The open, checked directory.
    let descriptor: Descriptor
    /// Its path, for error messages.
    var path: String { descriptor.path }

    private init(descriptor: Descriptor) { self.descriptor = descriptor }

    // MARK: - Opening

    /// Opens (and with `create`, makes) the keychain's base directory.
    ///
    /// Missing parent directories are made 0700; existing parents are the
    /// user's own business (`~/.local/share` may well be 0755) and are not
    /// checked. The base directory itself must not be a symbolic link.
    /// - Parameters:
    ///   - path: the base directory.
    ///   - create: make it when missing.
    /// - Returns: the directory, or nil when it is missing and `create` is false.
    /// - Throws: ``KeychainError`` when it is unsafe or cannot be opened.
    static func openBase(_ path: String, create: Bool) throws -> SecureDirectory? {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let parentPath: String
        let name: String
        if let slash = trimmed.lastIndex(of: "/") {
            parentPath = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
            name = String(trimmed[trimmed.index(after: slash)...])
        } else {
            parentPath = "."
            name = trimmed
        }
        if create { try makeDirectories(parentPath) }
        let parentFD = open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if parentFD < 0 {
            if errno == ENOENT && !create { return nil }
            throw KeychainError.io(operation: "open", path: parentPath, errno: errno)
        }
        let parent = Descriptor(fd: parentFD, path: parentPath)
        return try openChild(of: parent, name: name, path: trimmed, create: create)
    }

    /// Opens (and with `create`, makes) a subdirectory.
    /// - Parameters:
    ///   - name: a single path component (already encoded).
    ///   - create: make it when missing.
    /// - Returns: the directory, or nil when it is missing and `create` is false.
    /// - Throws: ``KeychainError`` when it is unsafe or cannot be opened.
    func subdirectory(_ name: String, create: Bool) throws -> SecureDirectory? {
        try Self.openChild(of: descriptor, name: name, path: path + "/" + name, create: create)
    }

    private static func openChild(of parent: Descriptor, name: String, path: String, create: Bool) throws
        -> SecureDirectory?
    {
        var created = false
        if create {
            if mkdirat(parent.fd, name, mode_t(FileSecurity.directoryMode)) == 0 {
                created = true
            } else if errno != EEXIST {
                throw KeychainError.io(operation: "mkdir", path: path, errno: errno)
            }
        }
        let fd = openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            switch errno {
            case ENOENT where !create: return nil
            case ELOOP, ENOTDIR: throw KeychainError.notARegularFile(path: path)
            default: throw KeychainError.io(operation: "open", path: path, errno: errno)
            }
        }
        let descriptor = Descriptor(fd: fd, path: path)
        if created {
            // Fresh directories always get exactly 0700, whatever the umask.
            try descriptor.setMode(FileSecurity.directoryMode)
            // Make the new entry durable in its parent.
            try? parent.sync()
        }
        try FileSecurity.check(try descriptor.status(), path: path, kind: .directory)
        return SecureDirectory(descriptor: descriptor)
    }

    /// `mkdir -p` with mode 0700 for the components that are missing.
    private static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode_t(FileSecurity.directoryMode)) != 0 && errno != EEXIST {
                throw KeychainError.io(operation: "mkdir", path: current, errno: errno)
            }
        }
    }

    // MARK: - Locking

    /// Runs `body` holding an advisory lock on the directory's `.lock` file.
    /// - Parameters:
    ///   - exclusive: writers take it exclusively, readers shared.
    ///   - body: the work to do under the lock.
    /// - Returns: what `body` returns.
    /// - Throws: ``KeychainError`` when the lock file is unsafe, or what `body` throws.
    func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        let lockPath = path + "/.lock"
        let fd = openat(
            descriptor.fd, ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode_t(FileSecurity.fileMode))
        if fd < 0 {
            if errno == ELOOP { throw KeychainError.notARegularFile(path: lockPath) }
            throw KeychainError.io(operation: "open", path: lockPath, errno: errno)
        }
        let lock = Descriptor(fd: fd, path: lockPath)
        try FileSecurity.check(try lock.status(), path: lockPath, kind: .regularFile)
        try lock.lock(exclusive: exclusive)
        // Closing the descriptor (when `lock` goes) releases the lock.
        return try withExtendedLifetime(lock) { try body() }
    }

    // MARK: - Files

    /// Reads a file of this directory after checking it.
    /// - Parameters:
    ///   - name: the file's name.
    ///   - limit: the most bytes accepted.
    /// - Returns: the bytes (nil in the inner optional when longer than `limit`),
    ///   or nil when there is no such file.
    /// - Throws: ``KeychainError`` when the file is unsafe or unreadable.
    func readFile(_ name: String, limit: Int) throws -> [UInt8]?? {
        let filePath = path + "/" + name
        // O_NONBLOCK: a FIFO planted under an item's name must not hang the open.
        let fd = openat(descriptor.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            switch errno {
            case ENOENT: return .none
            case ELOOP: throw KeychainError.notARegularFile(path: filePath)
            default: throw KeychainError.io(operation: "open", path: filePath, errno: errno)
            }
        }
        let file = Descriptor(fd: fd, path: filePath)
        try FileSecurity.check(try file.status(), path: filePath, kind: .regularFile)
        return .some(try file.readAll(limit: limit))
    }

    /// Checks the file a name refers to, if any, without following it.
    /// - Parameter name: the file's name.
    /// - Throws: ``KeychainError`` when it exists and is unsafe.
    func checkExistingFile(_ name: String) throws {
        let filePath = path + "/" + name
        var info = stat()
        if fstatat(descriptor.fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return }
            throw KeychainError.io(operation: "stat", path: filePath, errno: errno)
        }
        try FileSecurity.check(info, path: filePath, kind: .regularFile)
    }

    /// Replaces a file atomically and durably: writes a 0600 temporary file
    /// in this directory, fsyncs it, renames it over `name`, fsyncs the
    /// directory. Call with the exclusive lock held.
    /// - Parameters:
    ///   - name: the file to replace.
    ///   - bytes: its new content.
    /// - Throws: ``KeychainError/io(operation:path:errno:)``; the old file is then unchanged.
    func replaceFile(_ name: String, with bytes: [UInt8]) throws {
        let temporaryName = ".tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let temporaryPath = path + "/" + temporaryName
        let fd = openat(
            descriptor.fd, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            mode_t(FileSecurity.fileMode))
        guard fd >= 0 else { throw KeychainError.io(operation: "create", path: temporaryPath, errno: errno) }
        do {
            let file = Descriptor(fd: fd, path: temporaryPath)
            try file.setMode(FileSecurity.fileMode)
            try file.writeAll(bytes)
            try file.sync()
            guard renameat(descriptor.fd, temporaryName, descriptor.fd, name) == 0 else {
                throw KeychainError.io(operation: "rename", path: path + "/" + name, errno: errno)
            }
        } catch {
            unlinkat(descriptor.fd, temporaryName, 0)
            throw error
        }
        try descriptor.sync()
    }

    /// Removes a file; a missing file is fine. Call with the exclusive lock held.
    /// - Parameter name: the file to remove.
    /// - Throws: ``KeychainError/io(operation:path:errno:)``.
    func removeFile(_ name: String) throws {
        if unlinkat(descriptor.fd, name, 0) != 0 {
            if errno == ENOENT { return }
            throw KeychainError.io(operation: "unlink", path: path + "/" + name, errno: errno)
        }
        try descriptor.sync()
    }

    /// Removes temporary files a crashed writer left behind. Call with the
    /// exclusive lock held: only a lock holder writes temporary files, so
    /// any that exist then are stale.
    func removeStaleTemporaryFiles() {
        guard let names = try? entryNames() else { return }
        for name in names where name.hasPrefix(".tmp-") {
            unlinkat(descriptor.fd, name, 0)
        }
    }

    /// The names in the directory, without `.` and `..`.
    /// - Returns: the names, unsorted.
    /// - Throws: ``KeychainError/io(operation:path:errno:)``.
    func entryNames() throws -> [String] {
        // fdopendir takes ownership of the descriptor it gets, so give it a duplicate.
        let copy = dup(descriptor.fd)
        guard copy >= 0 else { throw KeychainError.io(operation: "dup", path: path, errno: errno) }
        guard let stream = fdopendir(copy) else {
            let error = errno
            close(copy)
            throw KeychainError.io(operation: "opendir", path: path, errno: error)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
