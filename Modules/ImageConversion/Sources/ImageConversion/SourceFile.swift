import ShareKitImageConversionInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The image being converted: an open descriptor read with `pread` (its
/// position is never used), and its size when the conversion began.
struct SourceFile: Sendable {
    let fd: Int32
    let size: Int64

    /// - Throws: ``ImageConversionError/unreadable(_:)`` when the descriptor
    ///   cannot be examined or is not a regular file.
    init(fd: Int32) throws(ImageConversionError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(systemMessage(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("it is not a regular file") }
        self.fd = fd
        self.size = Int64(info.st_size)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    /// - Throws: ``ImageConversionError/unreadable(_:)`` on an I/O error.
    func bytes(at offset: Int64, count: Int) throws(ImageConversionError) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let wanted = Int(min(Int64(count), size - offset))
        var buffer = [UInt8](repeating: 0, count: wanted)
        var failure: ImageConversionError?
        let done = buffer.withUnsafeMutableBytes { raw -> Int in
            do throws(ImageConversionError) { return try read(into: raw, at: offset) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return done == wanted ? buffer : Array(buffer[..<done])
    }

    /// Fills as much of `buffer` as the file has from `offset`.
    /// - Returns: how many bytes were read (0 at the end of the file).
    /// - Throws: ``ImageConversionError/unreadable(_:)`` on an I/O error.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ImageConversionError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .unreadable(systemMessage(errno)) }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// `strerror` as a String, for error reasons (never file contents).
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
