import Glibc
import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// The bytes of one transfer's request body, handed to libcurl's read
/// callback piece by piece, with the position libcurl can seek back to.
///
/// A file region is opened when the transfer starts (not when the request
/// value was made) and read with `pread` at absolute offsets, so nothing is
/// buffered here beyond libcurl's own upload buffer, a rewind is only a new
/// position, and the descriptor is never shared with another transfer.
final class RequestBodySource {
    private enum Storage {
        case bytes([UInt8])
        case file(HTTPFileRegion)
    }

    private let storage: Storage
    /// The open file of a file region; -1 once closed (or for bytes).
    private var descriptor: Int32
    /// The body's length, the request's `Content-Length`.
    let length: UInt64
    /// The next byte to hand out, relative to the body's start.
    private(set) var position: UInt64 = 0
    /// Why reading failed, when it did; the transfer reports this instead of
    /// libcurl's generic read error.
    private(set) var failure: HTTPClientError?

    private init(storage: Storage, length: UInt64, descriptor: Int32 = -1) {
        self.storage = storage
        self.length = length
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Opens a body for a transfer.
    /// - Parameter body: the request's body.
    /// - Returns: the source, or nil for an empty body.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError/fileUnreadable(path:reason:)`` when the
    ///   file cannot be opened or is not a regular file,
    ///   ``ShareKitHTTPInterface/HTTPClientError/fileChanged(path:reason:)`` when it is shorter
    ///   than the region's end.
    static func open(_ body: HTTPRequestBody) throws(HTTPClientError) -> RequestBodySource? {
        switch body {
        case .empty:
            return nil
        case .bytes(let bytes):
            return RequestBodySource(storage: .bytes(bytes), length: UInt64(bytes.count))
        case .file(let region):
            let (end, overflow) = region.offset.addingReportingOverflow(region.length)
            guard !overflow, end <= UInt64(Int64.max) else {
                throw .fileChanged(path: region.path, reason: "the region's end is beyond any file size")
            }
            let descriptor = Glibc.open(region.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .fileUnreadable(path: region.path, reason: Self.message(errno))
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let error = errno
                Glibc.close(descriptor)
                throw .fileUnreadable(path: region.path, reason: Self.message(error))
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                Glibc.close(descriptor)
                throw .fileUnreadable(path: region.path, reason: "not a regular file")
            }
            guard UInt64(status.st_size) >= end else {
                Glibc.close(descriptor)
                throw .fileChanged(
                    path: region.path, reason: "it is \(status.st_size) bytes long, the region ends at byte \(end)")
            }
            // The whole region is read once, front to back: let the kernel read ahead.
            _ = posix_fadvise(
                descriptor, off_t(region.offset), off_t(region.length), POSIX_FADV_SEQUENTIAL)
            return RequestBodySource(storage: .file(region), length: region.length, descriptor: descriptor)
        }
    }

    /// Copies the next bytes into libcurl's buffer.
    /// - Parameters:
    ///   - buffer: where to write.
    ///   - capacity: the most bytes to write.
    /// - Returns: the number of bytes written (0 at the end of the body), or
    ///   nil when reading failed (``failure`` says why).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let wanted = Int(min(UInt64(capacity), length - position))
        guard wanted > 0 else { return 0 }
        switch storage {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: source.baseAddress! + Int(position), byteCount: wanted)
            }
            position += UInt64(wanted)
            return wanted
        case .file(let region):
            while true {
                let count = pread(descriptor, buffer, wanted, off_t(region.offset + position))
                if count > 0 {
                    position += UInt64(count)
                    return count
                }
                if count == 0 {
                    failure = .fileChanged(
                        path: region.path,
                        reason: "it became shorter while being sent (ended before byte \(region.offset + length))")
                    return nil
                }
                if errno == EINTR { continue }
                failure = .fileUnreadable(path: region.path, reason: Self.message(errno))
                return nil
            }
        }
    }

    /// Moves the position, for libcurl's rewinds (a redirect that keeps the
    /// body, a request repeated on a fresh connection after a reused one
    /// turned out dead).
    /// - Parameter offset: the new position from the body's start.
    /// - Returns: false when the offset is beyond the body.
    func seek(to offset: UInt64) -> Bool {
        guard offset <= length else { return false }
        position = offset
        return true
    }

    /// Closes the file, if any; called when the transfer ends.
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
