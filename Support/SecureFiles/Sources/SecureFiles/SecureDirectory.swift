#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private directory, opened without following symbolic links and
/// checked (owner, no access for group or others) through its descriptor.
///
/// Everything inside it is reached relative to that descriptor (`openat`,
/// `renameat`, `unlinkat`), so a path swapped for a symbolic link after the
/// check cannot redirect a read or a write. Names of entries are single path
/// components (no `/`, not `.` or `..`); any other name is refused with
/// `EINVAL`.
public final class SecureDirectory {
    /// The open, checked directory.
    let descriptor: Descriptor
    /// Its path, for error messages.
    public var path: String { descriptor.path }

    private init(descriptor: Descriptor) { self.descriptor = descriptor }

    /// What ``readFile(_:limit:)`` found.
    public enum FileContents: Equatable, Sendable {
        /// There is no file of that name.
        case missing
        /// The file is longer than the limit; it was not read to the end.
        case tooLarge
        /// The whole file.
        case bytes([UInt8])
    }

    // MARK: - Opening

    /// Opens (and with `create`, makes) a base directory given by path.
    ///
    /// Missing parent directories are made 0700; existing parents are the
    /// user's own business (`~/.local/share` may well be 0755) and are not
    /// checked. The base directory itself must not be a symbolic link, must
    /// belong to this user and must be closed to group and others; a fresh
    /// one is made exactly 0700, whatever the umask.
    /// - Parameters:
    ///   - path: the base directory, absolute or relative to the current directory.
    ///   - create: make it when missing.
    /// - Returns: the directory, or nil when it is missing and `create` is false.
    /// - Throws: ``SecureFileError`` when it is unsafe or cannot be opened or made.
    public static func openBase(_ path: String, create: Bool) throws(SecureFileError) -> SecureDirectory? {
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
            throw .io(operation: "open", path: parentPath, errno: errno)
        }
        let parent = Descriptor(fd: parentFD, path: parentPath)
        return try openChild(of: parent, name: name, path: trimmed, create: create)
    }

    /// Opens (and with `create`, makes) a subdirectory, with the same checks
    /// as ``openBase(_:create:)``.
    /// - Parameters:
    ///   - name: a single path component (already encoded).
    ///   - create: make it when missing (and fsync this directory, so that
    ///     the new name survives a crash).
    /// - Returns: the directory, or nil when it is missing and `create` is false.
    /// - Throws: ``SecureFileError`` when it is unsafe or cannot be opened or made.
    public func subdirectory(_ name: String, create: Bool) throws(SecureFileError) -> SecureDirectory? {
        try subdirectory(name, create: create, durable: true)
    }

    /// Opens (and with `create`, makes) a direct subdirectory, as
    /// ``subdirectory(_:create:)`` does.
    /// - Parameters:
    ///   - name: a single path component (already encoded).
    ///   - create: make it when missing.
    ///   - durable: when it is made, fsync this directory so that the new
    ///     name survives a crash. False for a working folder whose name is
    ///     made durable later, by a rename and an fsync of its final parent,
    ///     or never needs to be: one fsync less.
    /// - Returns: the directory, or nil when it is missing and `create` is false.
    /// - Throws: ``SecureFileError`` when it is unsafe or cannot be opened or made.
    public func subdirectory(_ name: String, create: Bool, durable: Bool) throws(SecureFileError)
        -> SecureDirectory?
    {
        try checkComponent(name, operation: "open")
        return try Self.openChild(of: descriptor, name: name, path: path + "/" + name, create: create, durable: durable)
    }

    private static func openChild(
        of parent: Descriptor, name: String, path: String, create: Bool, durable: Bool = true
    ) throws(SecureFileError) -> SecureDirectory? {
        var created = false
        if create {
            if mkdirat(parent.fd, name, mode_t(FileSecurity.directoryMode)) == 0 {
                created = true
            } else if errno != EEXIST {
                throw .io(operation: "mkdir", path: path, errno: errno)
            }
        }
        let fd = openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            switch errno {
            case ENOENT where !create: return nil
            case ELOOP, ENOTDIR: throw .wrongFileType(path: path, expected: .directory)
            default: throw .io(operation: "open", path: path, errno: errno)
            }
        }
        let descriptor = Descriptor(fd: fd, path: path)
        if created {
            // Fresh directories always get exactly 0700, whatever the umask.
            try descriptor.setMode(FileSecurity.directoryMode)
            // Make the new entry durable in its parent.
            if durable { try? parent.sync() }
        }
        try FileSecurity.check(try descriptor.status(), path: path, kind: .directory)
        return SecureDirectory(descriptor: descriptor)
    }

    /// `mkdir -p` with mode 0700 for the components that are missing.
    private static func makeDirectories(_ path: String) throws(SecureFileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode_t(FileSecurity.directoryMode)) != 0 && errno != EEXIST {
                throw .io(operation: "mkdir", path: current, errno: errno)
            }
        }
    }

    // MARK: - Locking

    /// Runs `body` holding an advisory `flock` on a lock file of this
    /// directory, waiting for it (see ``openLockFile(_:)``).
    ///
    /// The lock is released when `body` returns or throws, and by the kernel
    /// when the process dies.
    /// - Parameters:
    ///   - name: the lock file's name.
    ///   - exclusive: writers take it exclusively, readers shared.
    ///   - body: the work to do under the lock.
    /// - Returns: what `body` returns.
    /// - Throws: ``SecureFileError`` when the lock file is unsafe or cannot be
    ///   opened or locked, or what `body` throws.
    public func withLock<T>(file name: String, exclusive: Bool, _ body: () throws -> T) throws -> T {
        let lock = try openLockFile(name)
        try lock.lock(exclusive: exclusive, wait: true)
        // Closing the descriptor (when `lock` goes) releases the lock.
        return try withExtendedLifetime(lock) { try body() }
    }

    /// Opens (making it 0600 when missing) a lock file and checks it, for
    /// callers that lock it themselves (``Descriptor/lock(exclusive:wait:)``,
    /// e.g. without waiting).
    ///
    /// Lock files are never deleted: removing one while another process
    /// waits on it would let two holders in at once. An existing one is
    /// opened without blocking, so a FIFO planted under its name is refused
    /// instead of hanging the open.
    /// - Parameter name: the lock file's name.
    /// - Returns: the open lock file, not yet locked.
    /// - Throws: ``SecureFileError`` when it is unsafe or cannot be opened.
    public func openLockFile(_ name: String) throws(SecureFileError) -> Descriptor {
        try checkComponent(name, operation: "open")
        let lockPath = path + "/" + name
        var fd = openat(
            descriptor.fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(FileSecurity.fileMode))
        let created = fd >= 0
        if !created && errno == EEXIST {
            fd = openat(descriptor.fd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        }
        if fd < 0 {
            if errno == ELOOP { throw .wrongFileType(path: lockPath, expected: .regularFile) }
            throw .io(operation: "open", path: lockPath, errno: errno)
        }
        let lock = Descriptor(fd: fd, path: lockPath)
        // Fresh lock files always get exactly 0600, whatever the umask.
        if created { try lock.setMode(FileSecurity.fileMode) }
        try FileSecurity.check(try lock.status(), path: lockPath, kind: .regularFile)
        return lock
    }

    // MARK: - Files

    /// Reads a file of this directory after checking it (a regular file of
    /// this user, closed to group and others, not a symbolic link).
    /// - Parameters:
    ///   - name: the file's name.
    ///   - limit: the most bytes accepted.
    /// - Returns: the contents, or whether the file is missing or longer than `limit`.
    /// - Throws: ``SecureFileError`` when the file is unsafe or unreadable.
    public func readFile(_ name: String, limit: Int) throws(SecureFileError) -> FileContents {
        try checkComponent(name, operation: "open")
        let filePath = path + "/" + name
        // O_NONBLOCK: a FIFO planted under the file's name must not hang the open.
        let fd = openat(descriptor.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: throw .wrongFileType(path: filePath, expected: .regularFile)
            default: throw .io(operation: "open", path: filePath, errno: errno)
            }
        }
        let file = Descriptor(fd: fd, path: filePath)
        try FileSecurity.check(try file.status(), path: filePath, kind: .regularFile)
        guard let bytes = try file.readAll(limit: limit) else { return .tooLarge }
        return .bytes(bytes)
    }

    /// Checks the file a name refers to, if any, without following it or
    /// opening it; for refusing to overwrite a file that may already have leaked.
    /// - Parameter name: the file's name.
    /// - Throws: ``SecureFileError`` when it exists and is unsafe, or cannot be examined.
    public func checkExistingFile(_ name: String) throws(SecureFileError) {
        try checkComponent(name, operation: "stat")
        let filePath = path + "/" + name
        var info = stat()
        if fstatat(descriptor.fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return }
            throw .io(operation: "stat", path: filePath, errno: errno)
        }
        try FileSecurity.check(info, path: filePath, kind: .regularFile)
    }

    /// Replaces a file atomically and durably: writes a 0600 temporary file
    /// (`.<name>.tmp-<pid>-<random>`) in this directory, fsyncs it, renames
    /// it over `name`, fsyncs the directory. Call with an exclusive lock held
    /// that covers `name`.
    /// - Parameters:
    ///   - name: the file to replace.
    ///   - bytes: its new content.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``; the old file is
    ///   then unchanged and the temporary removed.
    public func replaceFile(_ name: String, with bytes: [UInt8]) throws(SecureFileError) {
        try checkComponent(name, operation: "rename")
        let temporaryName = TemporaryFileName.make(for: name)
        let temporaryPath = path + "/" + temporaryName
        let fd = openat(
            descriptor.fd, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            mode_t(FileSecurity.fileMode))
        guard fd >= 0 else { throw .io(operation: "create", path: temporaryPath, errno: errno) }
        do throws(SecureFileError) {
            let file = Descriptor(fd: fd, path: temporaryPath)
            try file.setMode(FileSecurity.fileMode)
            try file.writeAll(bytes)
            try file.sync()
            guard renameat(descriptor.fd, temporaryName, descriptor.fd, name) == 0 else {
                throw .io(operation: "rename", path: path + "/" + name, errno: errno)
            }
        } catch {
            unlinkat(descriptor.fd, temporaryName, 0)
            throw error
        }
        try descriptor.sync()
    }

    /// Removes a file, then fsyncs the directory; a missing file is fine.
    /// Call with an exclusive lock held that covers `name`.
    ///
    /// The file is not checked first: removing a bad file is how a person
    /// recovers from it.
    /// - Parameter name: the file to remove.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    public func removeFile(_ name: String) throws(SecureFileError) {
        try checkComponent(name, operation: "unlink")
        if unlinkat(descriptor.fd, name, 0) != 0 {
            if errno == ENOENT { return }
            throw .io(operation: "unlink", path: path + "/" + name, errno: errno)
        }
        try descriptor.sync()
    }

    /// Removes the temporary files of `name` that a crashed writer left
    /// behind. Call with the exclusive lock held that covers `name`: only a
    /// lock holder writes temporaries of it, so any that exist then are stale.
    /// Failures are ignored; the next writer tries again.
    /// - Parameter name: the file whose temporaries to remove.
    public func removeStaleTemporaryFiles(of name: String) {
        guard let names = try? entryNames() else { return }
        for entry in names where TemporaryFileName.isTemporary(entry, of: name) {
            unlinkat(descriptor.fd, entry, 0)
        }
    }

    /// Removes the temporary files of every file in this directory that
    /// crashed writers left behind. Call only with an exclusive lock held
    /// that covers the whole directory. Failures are ignored.
    public func removeAllStaleTemporaryFiles() {
        guard let names = try? entryNames() else { return }
        for entry in names where TemporaryFileName.isTemporary(entry) {
            unlinkat(descriptor.fd, entry, 0)
        }
    }

    /// Renames a file to the first of `candidates` that does not exist yet,
    /// then fsyncs the directory. Call with the exclusive lock held, so no
    /// one else picks the same name.
    /// - Parameters:
    ///   - name: the file to move.
    ///   - candidates: new names, tried in order.
    /// - Returns: the name it got.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` (`EEXIST` when
    ///   every candidate is taken).
    public func moveAside(_ name: String, toFirstFreeOf candidates: [String]) throws(SecureFileError) -> String {
        try checkComponent(name, operation: "rename")
        for candidate in candidates {
            try checkComponent(candidate, operation: "rename")
            var info = stat()
            if fstatat(descriptor.fd, candidate, &info, AT_SYMLINK_NOFOLLOW) == 0 { continue }
            guard renameat(descriptor.fd, name, descriptor.fd, candidate) == 0 else {
                throw .io(operation: "rename", path: path + "/" + name, errno: errno)
            }
            try descriptor.sync()
            return candidate
        }
        throw .io(operation: "rename", path: path + "/" + name, errno: EEXIST)
    }

    /// The names in the directory, without `.` and `..`.
    /// - Returns: the names, unsorted.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    public func entryNames() throws(SecureFileError) -> [String] {
        // fdopendir takes ownership of the descriptor it gets, so give it a duplicate.
        let copy = dup(descriptor.fd)
        guard copy >= 0 else { throw .io(operation: "dup", path: path, errno: errno) }
        guard let stream = fdopendir(copy) else {
            let error = errno
            close(copy)
            throw .io(operation: "opendir", path: path, errno: error)
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

    /// Refuses a name that is not a single path component: empty, `.`, `..`,
    /// or holding `/` or NUL would reach outside this directory or past the
    /// checks.
    private func checkComponent(_ name: String, operation: String) throws(SecureFileError) {
        let isComponent =
            !name.isEmpty && name != "." && name != ".."
            && !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 })
        guard isComponent else { throw .io(operation: operation, path: path + "/" + name, errno: EINVAL) }
    }
}
