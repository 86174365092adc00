#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor that closes itself when the last reference goes,
/// so that an early `throw` never leaks a descriptor (or a lock held on it).
///
/// Descriptors come from ``SecureDirectory`` (``SecureDirectory/openLockFile(_:)``);
/// every system call on one turns a failure into
/// ``SecureFileError/io(operation:path:errno:)`` naming the path, never
/// file contents.
public final class Descriptor {
    /// The raw descriptor.
    let fd: Int32
    /// The path it was opened as, for error messages only.
    public let path: String

    /// Takes ownership of an open descriptor.
    /// - Parameters:
    ///   - fd: an open descriptor; closed on deinit.
    ///   - path: the path it names, used in errors.
    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// The file's status, from the descriptor (not the path, so it describes
    /// exactly what was opened).
    /// - Returns: the `stat` of the open file.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    func status() throws(SecureFileError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(operation: "fstat", path: path, errno: errno) }
        return info
    }

    /// Takes an advisory `flock` on the descriptor (``FileLock``). The lock
    /// is released when this descriptor goes.
    /// - Parameters:
    ///   - exclusive: an exclusive (writer) or a shared (reader) lock.
    ///   - wait: wait for the lock, or give up at once when it is held.
    /// - Returns: true when the lock is held; false only without `wait`, when it is busy.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    @discardableResult
    public func lock(exclusive: Bool, wait: Bool = true) throws(SecureFileError) -> Bool {
        try FileLock.lock(fd, exclusive: exclusive, wait: wait, path: path)
    }

    /// Reads the whole file, up to `limit` bytes.
    /// - Parameter limit: the most bytes accepted.
    /// - Returns: the bytes, or nil when the file is longer than `limit`.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    func readAll(limit: Int) throws(SecureFileError) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "read", path: path, errno: errno)
            }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit { return nil }
        }
    }

    /// Writes every byte, continuing after short writes and interruptions.
    /// - Parameter bytes: what to write.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    func writeAll(_ bytes: [UInt8]) throws(SecureFileError) {
        try DurableFile.writeAll(fd, bytes, path: path)
    }

    /// Flushes the file (or, for a directory, its entries) to stable storage.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    func sync() throws(SecureFileError) {
        try DurableFile.sync(fd, path: path)
    }

    /// Sets the permission bits, for files this process just created (the
    /// umask may have narrowed them; we never widen beyond owner-only).
    /// - Parameter mode: the permission bits.
    /// - Throws: ``SecureFileError/io(operation:path:errno:)``.
    func setMode(_ mode: UInt32) throws(SecureFileError) {
        guard fchmod(fd, mode_t(mode)) == 0 else { throw .io(operation: "fchmod", path: path, errno: errno) }
    }
}
