import ShareKitOutboxInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outbox's file system work: owner-only directories, a file's own copy
/// (a hard link when the source is on the same file system, else a streamed
/// copy), fsync of files and directories, removal of an item's folder.
/// Failures name the path and the errno text, never file contents.
enum OutboxFiles {
    /// The mode of the outbox's directories.
    static let directoryMode: mode_t = 0o700
    /// The mode of copied files.
    static let fileMode: mode_t = 0o600
    /// The buffer of a streamed copy: memory stays bounded whatever the file size.
    static let copyBufferSize = 256 * 1024

    /// Creates a directory (owner only) unless it exists as a directory.
    static func makeDirectory(_ path: String) throws(OutboxError) {
        if mkdir(path, directoryMode) == 0 { return }
        let code = errno
        var info = stat()
        guard code == EEXIST, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw failure(path, code)
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .files(
                path: path,
                reason: "the directory is open to other users (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }

    /// Makes `destination` the outbox's own copy of `source`: a hard link
    /// when both are on one file system (no bytes move, and deleting the
    /// inbox entry leaves the outbox's link), else a streamed copy, whose
    /// data is fsynced. The caller makes the names durable
    /// (``syncDirectories(_:)``); a link's data is the inbox writer's,
    /// synced before its entry appeared.
    /// - Returns: the size of the copy.
    static func linkOrCopy(_ source: String, to destination: String) throws(OutboxError) -> Int64 {
        unlink(destination)  // a takeover that died half way may have left one
        if link(source, destination) == 0 {
            // One inode with the inbox's file: make it private whatever the
            // writer chose (the inbox entry is about to be deleted).
            guard chmod(destination, fileMode) == 0 else { throw failure(destination, errno) }
        } else {
            try copy(source, to: destination)
        }
        return try size(of: destination)
    }

    /// Streams `source` into a new `destination` (0600) and fsyncs it.
    static func copy(_ source: String, to destination: String) throws(OutboxError) {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { throw failure(source, errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard output >= 0 else { throw failure(destination, errno) }
        defer { close(output) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: copyBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(source, errno)
            }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            try mapped { () throws(SecureFileError) in try DurableFile.writeAll(output, chunk, path: destination) }
        }
        try mapped { () throws(SecureFileError) in try DurableFile.sync(output, path: destination) }
    }

    /// Makes the names created in item folders (and the folders themselves)
    /// durable, for a whole batch at once: where the system has `syncfs`
    /// (Linux) one flush of the file system instead of one per folder;
    /// elsewhere each folder and its parent are fsynced.
    /// - Parameter folders: the item folders written; empty paths are ignored.
    static func syncDirectories(_ folders: [String]) throws(OutboxError) {
        let folders = folders.filter { !$0.isEmpty }
        guard let first = folders.first else { return }
        if let syncfs = fileSystemSync {
            let fd = open(first, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw failure(first, errno) }
            defer { close(fd) }
            guard syncfs(fd) == 0 else { throw failure(first, errno) }
            return
        }
        var parents: Set<String> = []
        for folder in folders {
            try syncDirectory(folder)
            if let slash = folder.lastIndex(of: "/"), parents.insert(String(folder[..<slash])).inserted {
                try syncDirectory(String(folder[..<slash]))
            }
        }
    }

    /// `syncfs(2)`, looked up at run time: the C library declares it only
    /// for `_GNU_SOURCE`, which Swift's system module does not set.
    private static let fileSystemSync: (@convention(c) (Int32) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Flushes a directory, so the names created or removed in it survive a crash.
    static func syncDirectory(_ path: String) throws(OutboxError) {
        try mapped { () throws(SecureFileError) in try DurableFile.syncDirectory(path) }
    }

    /// A regular file's size.
    static func size(of path: String) throws(OutboxError) -> Int64 {
        try status(of: path).size
    }

    /// A file's size and modification time (nanoseconds), as an upload identifies a file version.
    static func status(of path: String) throws(OutboxError) -> (size: Int64, modificationNanoseconds: Int64) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure(path, errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .files(path: path, reason: "not a regular file") }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return (Int64(info.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// The names in a directory (without `.` and `..`); empty when it does not exist.
    static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a directory of plain files (an item's folder) and the folder
    /// itself; a missing folder is fine.
    static func removeFolder(_ path: String) throws(OutboxError) {
        for name in names(in: path) where unlink(path + "/" + name) != 0 && errno != ENOENT {
            throw failure(path + "/" + name, errno)
        }
        if rmdir(path) != 0 && errno != ENOENT { throw failure(path, errno) }
    }

    /// Runs a durable-file step, turning its failure into the outbox's error
    /// (the path and the errno text, as every other failure here).
    private static func mapped(_ body: () throws(SecureFileError) -> Void) throws(OutboxError) {
        do throws(SecureFileError) {
            try body()
        } catch .io(_, let path, let code) {
            throw failure(path, code)
        } catch {
            throw .files(path: "", reason: error.description)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> OutboxError {
        .files(path: path, reason: String(cString: strerror(code)))
    }
}
