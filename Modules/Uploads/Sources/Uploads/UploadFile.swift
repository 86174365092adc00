import Dispatch
import Glibc
import ShareKitCryptoInterface
import ShareKitHTTPInterface
public import ShareKitServerAPIInterface
public import ShareKitUploadsInterface
import Synchronization

/// Reading the file to upload: its identity (stat) and the one hashing pass.
public enum UploadFile {
    /// The size of the read buffer of the hashing pass; memory use does not
    /// depend on the file's size.
    static let bufferSize = 256 * 1024

    /// The identity (path, size, mtime) of a regular file as it is now.
    /// - Parameter path: the file's path.
    /// - Returns: its identity.
    /// - Throws: `APIError.failed(.fileChanged)` when it is missing, not a
    ///   regular file, or cannot be examined.
    public static func identity(ofPath path: String) throws(APIError) -> UploadFileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw changed(path, "cannot examine \(path): \(String(cString: strerror(errno)))")
        }
        return try identity(path: path, info)
    }

    /// Describes a file on disk to upload, with its identity as it is now.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - fileName: the name the server is told; the last path component when nil.
    ///   - contentType: the content type.
    /// - Returns: the source.
    /// - Throws: `APIError.failed(.fileChanged)` when the file cannot be examined.
    public static func source(path: String, fileName: String? = nil, contentType: String) throws(APIError)
        -> UploadSource
    {
        let name = fileName ?? String(path.split(separator: "/").last ?? Substring(path))
        return UploadSource(identity: try identity(ofPath: path), fileName: name, contentType: contentType)
    }

    private static func identity(path: String, _ info: stat) throws(APIError) -> UploadFileIdentity {
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw changed(path, "\(path) is not a regular file") }
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

    /// Hashes the file whole and, when `partSize` is given, part by part,
    /// each through a fixed buffer. With a part size the two run at once on
    /// two threads, each reading the file (from the page cache) on its own
    /// descriptor: SHA-256 is the pass's cost, and two cores halve it.
    /// Without `wholeFile` only the parts are hashed (the composite form
    /// needs nothing else), on the calling thread.
    /// - Parameters:
    ///   - identity: the version expected; checked before and after reading.
    ///   - partSize: the part size for per-part digests, or nil.
    ///   - wholeFile: whether the whole file's SHA-256 is wanted too
    ///     (``Digests/whole`` is empty otherwise); ignored without a part size.
    ///   - crypto: the SHA-256 implementation.
    ///   - shouldStop: polled between reads; true ends the pass with nil.
    /// - Returns: the digests, or nil when stopped.
    /// - Throws: `APIError.failed(.fileChanged)`.
    static func hash(
        _ identity: UploadFileIdentity, partSize: Int64?, wholeFile: Bool = true, crypto: any CryptoProvider,
        shouldStop: () -> Bool
    ) throws(APIError) -> Digests? {
        let path = identity.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw changed(path, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw changed(path, "cannot examine \(path)") }
        guard try Self.identity(path: path, info) == identity else {
            throw changed(path, "\(path) is no longer the version to upload (size or modification time differ)")
        }
        let (whole, parts) = withoutActuallyEscaping(shouldStop) { shouldStop in
            let stop = StopFlag(shouldStop)
            guard let partSize, partSize > 0 else {
                let whole = wholeDigest(fd, identity: identity, crypto: crypto, stop: stop)
                return (whole, Result<[[UInt8]]?, APIError>.success([]))
            }
            guard wholeFile else {
                // The parts are independent: two threads take every other
                // part each, so the one pass costs half its SHA-256 time on two cores.
                let lanes = ConcurrentLanes(count: 2)
                DispatchQueue.concurrentPerform(iterations: 2) { lane in
                    lanes.results[lane] = partDigests(
                        fd, identity: identity, partSize: partSize, lane: lane, of: 2, crypto: crypto, stop: stop)
                }
                return (Result<[UInt8]?, APIError>.success([]), lanes.interleaved())
            }
            let results = ConcurrentResults()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    results.whole = wholeDigest(fd, identity: identity, crypto: crypto, stop: stop)
                } else {
                    results.parts = partDigests(fd, identity: identity, partSize: partSize, crypto: crypto, stop: stop)
                }
            }
            return (results.whole, results.parts)
        }
        guard let wholeDigest = try whole.get(), let partDigests = try parts.get() else { return nil }
        var after = stat()
        guard fstat(fd, &after) == 0, try Self.identity(path: path, after) == identity else {
            throw changed(path, "\(path) changed while it was read")
        }
        return Digests(whole: wholeDigest, parts: partDigests)
    }

    /// The results of the two threads (each writes its own field once,
    /// before `concurrentPerform` returns).
    private final class ConcurrentResults: @unchecked Sendable {
        var whole: Result<[UInt8]?, APIError> = .success(nil)
        var parts: Result<[[UInt8]]?, APIError> = .success([])
    }

    /// The part digests of the threads of a parts-only pass: thread `lane`
    /// of `count` hashed parts `lane`, `lane + count`, … (0-based), and
    /// writes only its own slot before `concurrentPerform` returns.
    private final class ConcurrentLanes: @unchecked Sendable {
        var results: [Result<[[UInt8]]?, APIError>]

        init(count: Int) { results = Array(repeating: .success([]), count: count) }

        /// The digests in part order: the first failure, nil when a lane was
        /// stopped, else the lanes' digests interleaved.
        func interleaved() -> Result<[[UInt8]]?, APIError> {
            var lanes: [[[UInt8]]] = []
            for result in results {
                switch result {
                case .failure(let error): return .failure(error)
                case .success(nil): return .success(nil)
                case .success(let digests?): lanes.append(digests)
                }
            }
            var merged: [[UInt8]] = []
            merged.reserveCapacity(lanes.reduce(0) { $0 + $1.count })
            var index = 0
            while !lanes.isEmpty, index / lanes.count < lanes[index % lanes.count].count {
                merged.append(lanes[index % lanes.count][index / lanes.count])
                index += 1
            }
            return .success(merged)
        }
    }

    /// `shouldStop`, polled from either thread; once true it stays true.
    /// (`@unchecked`: the closure is the uploader's thread-safe check, and
    /// the flag never outlives `hash`.)
    private final class StopFlag: @unchecked Sendable {
        private let shouldStop: () -> Bool
        private let stopped = Mutex(false)
        init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
        var isSet: Bool {
            stopped.withLock { stopped in
                if !stopped && shouldStop() { stopped = true }
                return stopped
            }
        }
    }

    /// The whole file's SHA-256, reading it front to back; nil when stopped.
    private static func wholeDigest(
        _ fd: Int32, identity: UploadFileIdentity, crypto: any CryptoProvider, stop: StopFlag
    )
        -> Result<[UInt8]?, APIError>
    {
        do throws(APIError) {
            var hasher = try makeHasher(crypto, path: identity.path)
            guard
                try read(
                    fd, identity: identity, from: 0, length: identity.size, stop: stop, into: { hasher.update($0) })
            else { return .success(nil) }
            return .success(try finalize(&hasher, path: identity.path))
        } catch {
            return .failure(error)
        }
    }

    /// Each part's SHA-256 in order (one part, empty, for an empty file); nil when stopped.
    /// - Parameters:
    ///   - lane: with `lanes`, which parts: those whose 0-based index is
    ///     `lane` modulo `lanes` (all of them with the defaults).
    ///   - lanes: how many threads share the parts.
    private static func partDigests(
        _ fd: Int32, identity: UploadFileIdentity, partSize: Int64, lane: Int = 0, of lanes: Int = 1,
        crypto: any CryptoProvider, stop: StopFlag
    ) -> Result<[[UInt8]]?, APIError> {
        do throws(APIError) {
            var digests: [[UInt8]] = []
            var offset = partSize * Int64(lane)
            // An empty file has one empty part, which lane 0 hashes.
            while offset < identity.size || (offset == 0 && lane == 0) {
                let length = min(partSize, identity.size - offset)
                var hasher = try makeHasher(crypto, path: identity.path)
                guard
                    try read(
                        fd, identity: identity, from: offset, length: length, stop: stop, into: { hasher.update($0) })
                else { return .success(nil) }
                digests.append(try finalize(&hasher, path: identity.path))
                offset += partSize * Int64(lanes)
                if length == 0 { break }
            }
            return .success(digests)
        } catch {
            return .failure(error)
        }
    }

    /// Reads `length` bytes from `offset` with `pread` through one fixed
    /// buffer, handing each chunk to `body`.
    /// - Returns: false when stopped.
    /// - Throws: `APIError.failed(.fileChanged)` for a read error or a file
    ///   that ends early.
    private static func read(
        _ fd: Int32, identity: UploadFileIdentity, from offset: Int64, length: Int64, stop: StopFlag,
        into body: (UnsafeRawBufferPointer) -> Void
    ) throws(APIError) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < length {
            if stop.isSet { return false }
            let want = Int(min(Int64(bufferSize), length - done))
            let count = pread(fd, buffer.baseAddress, want, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw changed(identity.path, "cannot read \(identity.path): \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                throw changed(
                    identity.path,
                    "\(identity.path) changed while it was read (\(offset + done) of \(identity.size) bytes)")
            }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            done += Int64(count)
        }
        return true
    }

    private static func makeHasher(_ crypto: any CryptoProvider, path: String) throws(APIError) -> any SHA256Hasher {
        do {
            return try crypto.makeSHA256Hasher()
        } catch {
            throw changed(path, "cannot hash \(path): \(error)")
        }
    }

    private static func finalize(_ hasher: inout any SHA256Hasher, path: String) throws(APIError) -> [UInt8] {
        do {
            return try hasher.finalize()
        } catch {
            throw changed(path, "cannot hash \(path): \(error)")
        }
    }

    /// The failure of a file that is not the version described, or cannot
    /// be read: the API client's "cannot be made" for a file body, which
    /// trying again unchanged does not help.
    private static func changed(_ path: String, _ why: String) -> APIError {
        .failed(.fileChanged(path: path, reason: why))
    }
}
