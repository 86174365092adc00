import ShareKitIntakeInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams bytes from a source descriptor into a copy, never holding more
/// than one buffer (1 MiB): `sendfile` for regular files (`pread` and
/// `pwrite` where the kernel cannot copy between the two), `poll` and
/// `read` for pipes and FIFOs so that a writer who stalls meets the deadline.
struct FileCopier {
    /// One read at most; progress is reported per chunk.
    static let chunkSize = 1 << 20
    /// The copy's write-back is started every 8 MiB (``EarlyWriteback``):
    /// the disk writes while the copy goes on, and ``finish(copied:)``'s
    /// fsync waits for the last window instead of the whole file. A 2 GiB
    /// copy and its fsync took 2.6 s instead of 3.2 s on a disk that
    /// writes 700 MB/s.
    static let writebackWindow: Int64 = 8 << 20

    let source: Int32
    let destination: Int32
    let context: LoadContext
    /// Hashes the copy's parts as the copy grows; told after each chunk.
    var hasher: CopyHasher? = nil

    /// Copies a regular file from offset 0 to its end (it may have grown or
    /// shrunk; the caller compares with the size it saw at the start).
    /// - Parameter expectedSize: the size at the start, for progress.
    /// - Returns: the bytes copied.
    /// - Throws: ``IntakeError`` (deadline, size limit, no space, read errors).
    func copyRegularFile(expectedSize: Int64) throws(IntakeError) -> Int64 {
        if let copied = try copyInKernel(expectedSize: expectedSize) { return copied }
        return try pump(total: expectedSize) { chunk, offset throws(IntakeError) in
            let n = pread(source, chunk.baseAddress, chunk.count, off_t(offset))
            if n < 0 && errno != EINTR { throw failure(errno, copying: false) }
            return n < 0 ? nil : n
        }
    }

    /// Copies a regular file with `sendfile`: the kernel moves the bytes from
    /// the source's page cache into the copy's, so they are copied once
    /// instead of twice (into this process's buffer and out of it). The
    /// copy goes in chunks of ``chunkSize`` with the same checks between
    /// them as ``pump(total:next:)``.
    /// - Parameter expectedSize: the size at the start, for progress.
    /// - Returns: the bytes copied, or nil when the kernel cannot copy
    ///   between these two files (nothing was written then; the caller
    ///   copies through a buffer).
    /// - Throws: ``IntakeError`` (deadline, size limit, no space, read errors).
    private func copyInKernel(expectedSize: Int64) throws(IntakeError) -> Int64? {
        // sendfile writes at the copy's file position: the copy is new and
        // empty, its position is 0, and only this loop writes to it.
        guard lseek(destination, 0, SEEK_CUR) == 0 else { return nil }
        var copied: Int64 = 0
        var writeback = EarlyWriteback(window: Self.writebackWindow)
        while true {
            try context.checkTime()
            var offset = off_t(copied)
            let n = sendfile(destination, source, &offset, Self.chunkSize)
            if n < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                if copied == 0 && (code == EINVAL || code == ENOSYS || code == EOPNOTSUPP) { return nil }
                throw failure(code, copying: true)
            }
            if n == 0 { return copied }
            copied += Int64(n)
            try advanced(to: copied, total: expectedSize, writeback: &writeback)
        }
    }

    /// Copies a pipe, FIFO or terminal to its end of file, waiting for data
    /// with `poll` in slices so the deadline and cancellation are checked
    /// even when nothing arrives.
    /// - Returns: the bytes copied.
    /// - Throws: ``IntakeError/deadlineExceeded(item:seconds:)`` when the
    ///   writer does not finish in time, and the errors of a copy.
    func copyStream() throws(IntakeError) -> Int64 {
        try pump(total: nil) { chunk, _ throws(IntakeError) in
            var poller = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, context.pollSliceMilliseconds)
            if ready < 0 && errno != EINTR { throw failure(errno, copying: false) }
            guard ready > 0 else { return nil }
            if poller.revents & Int16(POLLNVAL) != 0 { throw failure(EBADF, copying: false) }
            let n = read(source, chunk.baseAddress, chunk.count)
            if n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK {
                throw failure(errno, copying: false)
            }
            return n < 0 ? nil : n
        }
    }

    /// The copy loop: one buffer, time checked before every read, the size
    /// limit after it, progress per chunk.
    /// - Parameters:
    ///   - total: the expected size for progress, when known.
    ///   - next: reads into the buffer at the given offset; returns the
    ///     bytes read, 0 at the end, nil for "nothing yet, ask again".
    private func pump(
        total: Int64?, next: (UnsafeMutableRawBufferPointer, Int64) throws(IntakeError) -> Int?
    ) throws(IntakeError) -> Int64 {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var copied: Int64 = 0
        var writeback = EarlyWriteback(window: Self.writebackWindow)
        while true {
            try context.checkTime()
            guard let n = try next(chunk, copied) else { continue }
            if n == 0 { return copied }
            try write(UnsafeRawBufferPointer(rebasing: chunk[0..<n]), at: copied)
            copied += Int64(n)
            try advanced(to: copied, total: total, writeback: &writeback)
        }
    }

    /// What follows each chunk of either copy loop: the chunk's write-back
    /// is started, the hasher told, the size limit checked, progress said.
    /// - Parameters:
    ///   - copied: the bytes in the copy now.
    ///   - total: the expected size for progress, when known.
    ///   - writeback: the copy's write-back.
    /// - Throws: ``IntakeError`` when the copy is over the size limit.
    private func advanced(to copied: Int64, total: Int64?, writeback: inout EarlyWriteback) throws(IntakeError) {
        writeback.wrote(destination, upTo: copied)
        hasher?.copied(upTo: copied)
        try context.checkSize(copied)
        context.report(copied: copied, total: total)
    }

    /// Flushes the copy to disk and checks that it holds what was copied.
    /// - Throws: ``IntakeError/copyMismatch(item:expected:actual:)`` or a write failure.
    func finish(copied: Int64) throws(IntakeError) {
        try durably { () throws(SecureFileError) in try DurableFile.sync(destination, path: context.item) }
        var info = stat()
        guard fstat(destination, &info) == 0 else { throw failure(errno, copying: true) }
        guard Int64(info.st_size) == copied else {
            throw .copyMismatch(item: context.item, expected: copied, actual: Int64(info.st_size))
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(IntakeError) {
        try durably { () throws(SecureFileError) in
            try DurableFile.writeAll(destination, bytes, at: offset, path: context.item)
        }
    }

    /// Runs a durable-file step on the copy; its failure becomes the copy's
    /// error (a full disk is ``IntakeError/noSpace(item:)``).
    private func durably(_ body: () throws(SecureFileError) -> Void) throws(IntakeError) {
        do throws(SecureFileError) {
            try body()
        } catch .io(_, _, let code) {
            throw failure(code, copying: true)
        } catch {
            throw .unreadable(item: context.item, reason: "copying failed: \(error)")
        }
    }

    /// The error for a failed system call: a full disk is ``IntakeError/noSpace(item:)``.
    private func failure(_ code: Int32, copying: Bool) -> IntakeError {
        if code == ENOSPC || code == EDQUOT { return .noSpace(item: context.item) }
        let what = copying ? "copying failed" : "reading failed"
        return .unreadable(item: context.item, reason: "\(what): \(systemMessage(code))")
    }
}
