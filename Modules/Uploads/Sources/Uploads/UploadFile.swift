import CryptoInterface
import Glibc
public import UploadsInterface

/// Reading the file to upload: its identity (stat) and the one hashing pass.
public enum UploadFile {
    /// The size of the read buffer of the hashing pass; memory use does not
    /// depend on the file's size.
    static let bufferSize = 256 * 1024

    /// The identity (path, size, mtime) of a regular file as it is now.
    /// - Parameter path: the file's path.
    /// - Returns: its identity.
    /// - Throws: ``UploadError/fileChanged(_:)`` when it is missing, not a
    ///   regular file, or cannot be examined.
    public static func identity(ofPath path: String) throws(UploadError) -> UploadFileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .fileChanged("cannot examine \(path): \(String(cString: strerror(errno)))")
        }
        return try identity(path: path, info)
    }

    /// Describes a file on disk to upload, with its identity as it is now.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - fileName: the name the server is told; the last path component when nil.
    ///   - contentType: the content type.
    /// - Returns: the source.
    /// - Throws: ``UploadError/fileChanged(_:)`` when the file cannot be examined.
    public static func source(path: String, fileName: String? = nil, contentType: String) throws(UploadError)
        -> UploadSource
    {
        let name = fileName ?? String(path.split(separator: "/").last ?? Substring(path))
        return UploadSource(identity: try identity(ofPath: path), fileName: name, contentType: contentType)
    }

    private static func identity(path: String, _ info: stat) throws(UploadError) -> UploadFileIdentity {
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .fileChanged("\(path) is not a regular file") }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return UploadFileIdentity(path: path, size: Int64(info.st_size), modificationTimeNanoseconds: mtime)
    }

    /// What the hashing pass found.
    struct Digests {
        /// The whole file's SHA-256.
        var whole: [UInt8]
        /// Each part's SHA-256, when a part size was given.
        var parts: [[UInt8]]
    }

    /// Reads the file once with a fixed buffer and hashes it whole and, when
    /// `partSize` is given, part by part in the same pass.
    /// - Parameters:
    ///   - identity: the version expected; checked before and after reading.
    ///   - partSize: the part size for per-part digests, or nil.
    ///   - crypto: the SHA-256 implementation.
    ///   - shouldStop: polled between reads; true ends the pass with nil.
    /// - Returns: the digests, or nil when stopped.
    /// - Throws: ``UploadError/fileChanged(_:)``.
    static func hash(
        _ identity: UploadFileIdentity, partSize: Int64?, crypto: any CryptoProvider, shouldStop: () -> Bool
    ) throws(UploadError) -> Digests? {
        let path = identity.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .fileChanged("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileChanged("cannot examine \(path)") }
        guard try Self.identity(path: path, info) == identity else {
            throw .fileChanged("\(path) is no longer the version to upload (size or modification time differ)")
        }
        var whole: any SHA256Hasher
        var part: any SHA256Hasher
        do {
            whole = try crypto.makeSHA256Hasher()
            part = try crypto.makeSHA256Hasher()
        } catch {
            throw .fileChanged("cannot hash \(path): \(error)")
        }
        var parts: [[UInt8]] = []
        var inPart: Int64 = 0
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            while true {
                if shouldStop() { return nil }
                var want = bufferSize
                if let partSize { want = Int(min(Int64(bufferSize), partSize - inPart)) }
                let count = read(fd, buffer.baseAddress, want)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw UploadError.fileChanged("cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                whole.update(chunk)
                total += Int64(count)
                if let partSize {
                    part.update(chunk)
                    inPart += Int64(count)
                    if inPart == partSize {
                        parts.append(try part.finalize())
                        inPart = 0
                    }
                }
            }
            if let partSize, inPart > 0 || parts.isEmpty, partSize > 0 {
                parts.append(try part.finalize())
            }
            guard total == identity.size else {
                throw UploadError.fileChanged("\(path) changed while it was read (\(total) of \(identity.size) bytes)")
            }
            var after = stat()
            guard fstat(fd, &after) == 0, try Self.identity(path: path, after) == identity else {
                throw UploadError.fileChanged("\(path) changed while it was read")
            }
            return Digests(whole: try whole.finalize(), parts: parts)
        } catch let error as UploadError {
            throw error
        } catch {
            throw .fileChanged("cannot hash \(path): \(error)")
        }
    }
}
