#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durable writes with plain POSIX calls: every byte written (short writes
/// and `EINTR` retried), `fsync` of the file, an atomic `rename` into place
/// and `fsync` of the directory, so after a crash a reader finds the old
/// file or the whole new one, never a torn one, and the new name survives.
///
/// These are the steps ``SecureDirectory/replaceFile(_:with:)`` takes inside
/// a checked directory; this type offers them one by one for callers that
/// manage their own descriptors (a streamed copy, an upload part renamed
/// only once its digest matched). Failures are
/// ``SecureFileError/io(operation:path:errno:)`` naming the system call and
/// the path, never file contents; callers map them to their own error type.
public enum DurableFile {
    /// Writes every byte of `bytes` to an open descriptor, continuing after
    /// short writes and `EINTR`.
    /// - Parameters:
    ///   - fd: a descriptor open for writing.
    ///   - bytes: what to write.
    ///   - offset: where to write (`pwrite`, the file offset is left alone),
    ///     or nil to write at the descriptor's current offset (`write`).
    ///   - path: the file's path, for errors only.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `write`
    ///   (or `pwrite`) and the errno, e.g. `ENOSPC` on a full disk.
    public static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil, path: String
    ) throws(SecureFileError) {
        guard let start = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n =
                if let offset {
                    pwrite(fd, start + done, bytes.count - done, off_t(offset) + off_t(done))
                } else {
                    write(fd, start + done, bytes.count - done)
                }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: offset == nil ? "write" : "pwrite", path: path, errno: errno)
            }
            done += n
        }
    }

    /// Writes every byte of `bytes` at the descriptor's current offset (see
    /// ``writeAll(_:_:at:path:)``).
    /// - Parameters:
    ///   - fd: a descriptor open for writing.
    ///   - bytes: what to write.
    ///   - path: the file's path, for errors only.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `write` and the errno.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SecureFileError) {
        // withUnsafeBytes rethrows untyped; the closure's failure comes back out here.
        var failure: SecureFileError?
        bytes.withUnsafeBytes { buffer in
            do throws(SecureFileError) {
                try writeAll(fd, buffer, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Flushes a file (or, for a directory, its entries) to stable storage,
    /// retrying `EINTR`.
    /// - Parameters:
    ///   - fd: an open descriptor.
    ///   - path: its path, for errors only.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `fsync` and the errno.
    public static func sync(_ fd: Int32, path: String) throws(SecureFileError) {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw .io(operation: "fsync", path: path, errno: errno)
        }
    }

    /// Flushes a directory's entries, so that names created, renamed or
    /// removed in it survive a crash.
    /// - Parameter path: the directory.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `open`
    ///   (e.g. `ENOENT`, `ENOTDIR`) or `fsync` and the errno.
    public static func syncDirectory(_ path: String) throws(SecureFileError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        try sync(fd, path: path)
    }

    /// Renames a written and synced temporary file over `path` (atomic:
    /// replaces an earlier file of that name), then flushes the directory
    /// that holds `path`.
    /// - Parameters:
    ///   - temporaryPath: the temporary file, in the same directory (same
    ///     file system) as `path`.
    ///   - path: the final name.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `rename`
    ///   (nothing moved) or, after the rename, with `open`/`fsync` of the directory.
    public static func commit(_ temporaryPath: String, to path: String) throws(SecureFileError) {
        guard rename(temporaryPath, path) == 0 else { throw .io(operation: "rename", path: path, errno: errno) }
        try syncDirectory(parentDirectory(of: path))
    }

    /// Replaces the file at `path` atomically and durably with `bytes`:
    /// writes a temporary file next to it (`.<name>.tmp-<pid>-<random>`,
    /// created exclusively and without following symbolic links), fsyncs it,
    /// renames it over `path` and fsyncs the directory.
    ///
    /// Concurrent writers of one path need a lock of their own; the last
    /// rename wins, and neither leaves a torn file.
    /// - Parameters:
    ///   - path: the file to replace (or create).
    ///   - bytes: its new content.
    ///   - mode: the new file's permission bits (0600 unless given), set
    ///     exactly whatever the umask.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` for the step
    ///   that failed (`create`, `fchmod`, `write`, `fsync`, `rename`; `EACCES`
    ///   or `EROFS` for a directory that cannot be written). Before the
    ///   rename the old file is unchanged and the temporary removed.
    public static func replace(_ path: String, with bytes: [UInt8], mode: UInt32 = FileSecurity.fileMode)
        throws(SecureFileError)
    {
        let directory = parentDirectory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporaryPath = (path.contains("/") ? directory + "/" : "") + TemporaryFileName.make(for: name)
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw .io(operation: "create", path: temporaryPath, errno: errno) }
        do throws(SecureFileError) {
            defer { close(fd) }
            guard fchmod(fd, mode_t(mode)) == 0 else {
                throw .io(operation: "fchmod", path: temporaryPath, errno: errno)
            }
            try writeAll(fd, bytes, path: temporaryPath)
            try sync(fd, path: temporaryPath)
            guard rename(temporaryPath, path) == 0 else { throw .io(operation: "rename", path: path, errno: errno) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        try syncDirectory(directory)
    }

    /// The directory part of a path: `.` for a bare name, `/` for a file in the root.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Advisory `flock` locks on open descriptors, retrying `EINTR`.
///
/// `flock` locks belong to the open file description, so two descriptors
/// opened separately exclude each other even inside one process, and the
/// kernel drops a lock when its holder dies, so a killed process never
/// blocks the next one. Closing the descriptor releases the lock.
public enum FileLock {
    /// Takes a lock on an open descriptor (a lock file, or a directory to
    /// lock the directory itself).
    /// - Parameters:
    ///   - fd: the open descriptor.
    ///   - exclusive: an exclusive (writer) or a shared (reader) lock.
    ///   - wait: wait for the lock, or give up at once when it is held.
    ///   - path: the path the descriptor was opened as, for errors only.
    /// - Returns: true when the lock is held; false only without `wait`, when it is busy.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)`` with `flock`
    ///   and the errno (`EBADF`, `ENOLCK`, …).
    @discardableResult
    public static func lock(_ fd: Int32, exclusive: Bool, wait: Bool, path: String) throws(SecureFileError) -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while flock(fd, operation) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return false
            default: throw .io(operation: "flock", path: path, errno: errno)
            }
        }
        return true
    }
}
