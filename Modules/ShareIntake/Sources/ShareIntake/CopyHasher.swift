import Dispatch
import ShareKitCore
import ShareKitCryptoInterface
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hashes the parts of a copy while the copy is being made, on a thread of
/// its own: the copy loop (`sendfile`, one core) says how far the copy has
/// got after each chunk, and this thread reads those bytes back from the
/// copy (still in the page cache) and feeds them to one SHA-256 per part.
/// It also runs on while the copy is fsynced, so the digests cost the
/// share no pass of its own over the file after the copy.
///
/// The digests are of the copy's bytes, read from the copy itself: whatever
/// the source did meanwhile, they describe what the share inbox holds.
/// Hashing never fails a load: a read or hashing failure, or a copy that
/// stopped, gives no digests, and the upload hashes the copy as before.
///
/// Memory: one 256 KiB buffer and 32 bytes a part.
final class CopyHasher: Sendable {
    /// Bytes read back per `pread`.
    static let bufferSize = 256 * 1024

    /// How far the copy has got, where it ended, and whether to stop.
    private struct Progress {
        var copied: Int64 = 0
        var end: Int64?
        var stop = false
    }

    private let copy: Int32
    private let partSize: Int64
    private let progress = Mutex(Progress())
    /// Signalled after each change of `progress`; the thread rechecks on each.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled once, when the thread has set `result` and returned.
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<[[UInt8]]?>(nil)
    /// Whether ``finish(size:)`` or ``cancel()`` has waited for the thread.
    private let waited = Atomic<Bool>(false)

    /// Starts hashing a copy that is about to be written.
    /// - Parameters:
    ///   - copy: the copy, open for reading (it is not closed here, and must
    ///     stay open until ``finish(size:)`` or ``cancel()`` returned).
    ///   - partSize: the part size, above 0.
    ///   - crypto: makes the SHA-256.
    /// - Returns: nil when `partSize` is not above 0.
    init?(copy: Int32, partSize: Int64, crypto: any CryptoProvider) {
        guard partSize > 0 else { return nil }
        self.copy = copy
        self.partSize = partSize
        // A thread of its own, not a pool's worker: the load waits for the
        // hashing, which must not wait for a worker in turn.
        let started = detachThread { [self] in
            let digests = (try? crypto.makeSHA256Hasher()).flatMap { run($0) }
            result.withLock { $0 = digests }
            done.signal()
        }
        if !started { done.signal() }
    }

    /// The copy now holds its first `bytes` bytes.
    func copied(upTo bytes: Int64) {
        progress.withLock { $0.copied = bytes }
        wake.signal()
    }

    /// The copy is complete at `size` bytes: waits for the thread to hash
    /// the rest (it has hashed alongside the copy and its fsync).
    /// - Returns: one digest per part, or nil when hashing failed or the
    ///   file has more parts than ``ShareKitCore/FilePartDigests/maximumParts``.
    func finish(size: Int64) -> FilePartDigests? {
        progress.withLock {
            $0.copied = size
            $0.end = size
        }
        wake.signal()
        waitForThread()
        guard let digests = result.withLock({ $0 }) else { return nil }
        return FilePartDigests(partSize: partSize, digests: digests, fileSize: size)
    }

    /// Stops the thread (the copy failed) and waits for it; nothing after
    /// ``finish(size:)``.
    func cancel() {
        progress.withLock { $0.stop = true }
        wake.signal()
        waitForThread()
    }

    private func waitForThread() {
        if waited.exchange(true, ordering: .acquiringAndReleasing) { return }
        done.wait()
    }

    /// The thread: hashes what is copied, part by part, until the end.
    /// - Returns: the digests, or nil when stopped or a read or hash failed.
    private func run(_ first: any SHA256Hasher) -> [[UInt8]]? {
        var hasher = first
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var digests: [[UInt8]] = []
        var hashed: Int64 = 0
        var inPart: Int64 = 0
        while true {
            let now = progress.withLock { $0 }
            if now.stop { return nil }
            if hashed < now.copied {
                let wanted = Int(min(Int64(Self.bufferSize), now.copied - hashed, partSize - inPart))
                let n = pread(copy, buffer.baseAddress, wanted, off_t(hashed))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                hashed += Int64(n)
                inPart += Int64(n)
                if inPart == partSize {
                    guard let digest = try? hasher.finalize() else { return nil }
                    digests.append(digest)
                    inPart = 0
                    if digests.count > FilePartDigests.maximumParts { return nil }
                }
                continue
            }
            if let end = now.end {
                guard hashed == end else { return nil }
                // The short last part, or the one empty part of an empty file.
                if inPart > 0 || digests.isEmpty {
                    guard let digest = try? hasher.finalize() else { return nil }
                    digests.append(digest)
                }
                return digests
            }
            wake.wait()
        }
    }
}
