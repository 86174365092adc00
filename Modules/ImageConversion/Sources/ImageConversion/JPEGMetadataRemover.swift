import ShareKitImageConversionInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JPEG sent as it is, without its location and identifying metadata,
/// not re-encoded: its marker segments are walked and each is copied,
/// rebuilt or left out; the compressed image data is copied byte for byte.
///
/// - `APP1` EXIF is rebuilt by the rule of ``JPEGMetadata`` (no GPS
///   directory, no owner or serial numbers, no maker note, no thumbnail),
///   keeping the Orientation, since the pixels are not turned; an EXIF
///   block that cannot be read is left out whole.
/// - `APP1` XMP (and extended XMP), `APP13` (IPTC, Photoshop), every other
///   application segment and `COM` comments are left out.
/// - `APP0` JFIF, `APP2` ICC profiles and `APP14` Adobe (which says how the
///   colours are coded) are copied, as is every segment a decoder needs.
/// - Bytes after the end of the image (`EOI`) are left out: phones put
///   further pictures there (a depth map, a gain map: `APP2` MPF points at
///   them), each with metadata of its own.
///
/// Memory: one 64 KiB buffer each way and one segment (at most 64 KiB).
struct JPEGMetadataRemover {
    let source: SourceFile
    let options: JPEGConversionOptions

    func remove(into destination: Int32) throws(ImageConversionError) -> MetadataRemoval {
        var input = SequentialReader(source: source, checkpoint: options.checkpoint)
        var output = SequentialWriter(fd: destination)
        guard try input.byte() == 0xFF, try input.byte() == 0xD8 else { throw .malformed("not a JPEG file") }
        output.write([0xFF, 0xD8])
        var removedLocation = false
        var changed = false
        var exifSeen = false
        var inScan = false
        while true {
            if inScan {
                // Entropy-coded data: copied up to the next marker that is
                // not a stuffed 0xFF (FF 00) or a restart (FF D0 to FF D7).
                guard try input.copy(untilByte: 0xFF, into: &output) else { break }
            }
            guard let first = try input.byte() else {
                if inScan { break }
                throw .malformed("the JPEG ends before its image")
            }
            guard first == 0xFF else {
                // Stray bytes between segments, which decoders skip too.
                changed = true
                continue
            }
            var marker: UInt8 = 0xFF
            while marker == 0xFF {
                guard let next = try input.byte() else {
                    if inScan { break }
                    throw .malformed("the JPEG ends before its image")
                }
                marker = next
            }
            if marker == 0xFF { break }
            if inScan && (marker == 0x00 || (0xD0...0xD7).contains(marker)) {
                output.write([0xFF, marker])
                continue
            }
            switch marker {
            case 0xD9:
                output.write([0xFF, 0xD9])
                if input.offset < source.size { changed = true }
                return try finish(&output, removedLocation: removedLocation, changed: changed)
            case 0x01, 0xD0...0xD7:
                output.write([0xFF, marker])
                continue
            default:
                break
            }
            guard let lengthBytes = try input.bytes(2), lengthBytes.count == 2 else {
                throw .malformed("a JPEG segment is cut short")
            }
            let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
            guard length >= 2, let payload = try input.bytes(length - 2), payload.count == length - 2 else {
                throw .malformed("a JPEG segment is cut short")
            }
            switch Self.decide(marker: marker, payload: payload) {
            case .copy:
                output.write([0xFF, marker] + lengthBytes + payload)
            case .exif where !exifSeen:
                exifSeen = true
                changed = true
                let directories = TIFFDirectories.parse(Array(payload.dropFirst(JPEGMetadata.exifPrefix.count)))
                removedLocation = removedLocation || !(directories?.gps.isEmpty ?? true)
                if let directories,
                    let rebuilt = JPEGMetadata.exifPayload(
                        directories, keep: false, orientation: directories.orientation, dimensions: nil)
                {
                    output.write([0xFF, 0xE1, UInt8((rebuilt.count + 2) >> 8), UInt8((rebuilt.count + 2) & 0xFF)])
                    output.write(rebuilt)
                }
            case .exif, .drop:
                changed = true
                if marker == 0xE1, payload.starts(with: JPEGMetadata.exifPrefix),
                    let directories = TIFFDirectories.parse(Array(payload.dropFirst(JPEGMetadata.exifPrefix.count))),
                    !directories.gps.isEmpty
                {
                    removedLocation = true
                }
                if JPEGMetadata.mentionsLocation(payload) { removedLocation = true }
            }
            if marker == 0xDA { inScan = true }
        }
        // A truncated image: what there was is copied, as it was.
        return try finish(&output, removedLocation: removedLocation, changed: changed)
    }

    private func finish(_ output: inout SequentialWriter, removedLocation: Bool, changed: Bool)
        throws(ImageConversionError) -> MetadataRemoval
    {
        try output.flush()
        return MetadataRemoval(size: output.written, removedLocation: removedLocation, changed: changed)
    }

    /// What becomes of a segment.
    enum Decision: Equatable {
        case copy
        case exif
        case drop
    }

    /// The rule for one segment, by its marker and the start of its payload.
    static func decide(marker: UInt8, payload: [UInt8]) -> Decision {
        switch marker {
        case 0xE0: return payload.starts(with: Array("JFIF".utf8) + [0]) ? .copy : .drop
        case 0xE1: return payload.starts(with: JPEGMetadata.exifPrefix) ? .exif : .drop
        case 0xE2: return payload.starts(with: Array("ICC_PROFILE".utf8) + [0]) ? .copy : .drop
        case 0xEE: return payload.starts(with: Array("Adobe".utf8)) ? .copy : .drop
        case 0xE3...0xED, 0xEF, 0xFE: return .drop
        default: return .copy
        }
    }
}

/// Reads a file from its start through a 64 KiB buffer with `pread`,
/// asking the checkpoint before each refill.
struct SequentialReader {
    static let bufferBytes = 64 * 1024
    let source: SourceFile
    let checkpoint: @Sendable () -> ImageConversionStop?
    private var buffer: [UInt8] = []
    private var position = 0
    /// The file offset of the buffer's end.
    private var filled: Int64 = 0

    init(source: SourceFile, checkpoint: @escaping @Sendable () -> ImageConversionStop?) {
        self.source = source
        self.checkpoint = checkpoint
    }

    /// The offset of the next byte to be read.
    var offset: Int64 { filled - Int64(buffer.count - position) }

    /// Refills an empty buffer; false at the end of the file.
    private mutating func fill() throws(ImageConversionError) -> Bool {
        guard position == buffer.count else { return true }
        if let stop = checkpoint() { throw .stopped(stop) }
        buffer = try source.bytes(at: filled, count: Self.bufferBytes)
        position = 0
        filled += Int64(buffer.count)
        return !buffer.isEmpty
    }

    /// The next byte, or nil at the end of the file.
    mutating func byte() throws(ImageConversionError) -> UInt8? {
        guard try fill() else { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// The next `count` bytes, fewer at the end of the file.
    mutating func bytes(_ count: Int) throws(ImageConversionError) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            guard try fill() else { break }
            let take = min(count - out.count, buffer.count - position)
            out += buffer[position..<(position + take)]
            position += take
        }
        return out
    }

    /// Copies bytes to `output` up to (not including) the next `byte`.
    /// - Returns: false when the file ended first.
    mutating func copy(untilByte byte: UInt8, into output: inout SequentialWriter) throws(ImageConversionError)
        -> Bool
    {
        while try fill() {
            let rest = buffer[position...]
            if let found = rest.firstIndex(of: byte) {
                output.write(buffer[position..<found])
                position = found
                return true
            }
            output.write(rest)
            position = buffer.count
        }
        return false
    }
}

/// Writes a file from its start through a 64 KiB buffer with `pwrite`.
struct SequentialWriter {
    let fd: Int32
    private var pending: [UInt8] = []
    private var failure: ImageConversionError?
    /// Bytes handed to the writer so far.
    private(set) var written: Int64 = 0

    init(fd: Int32) { self.fd = fd }

    /// Queues bytes; an error is reported by the next ``flush()``.
    mutating func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        pending.append(contentsOf: bytes)
        written += Int64(bytes.count)
        if pending.count >= SequentialReader.bufferBytes, failure == nil {
            do throws(ImageConversionError) { try flush() } catch { failure = error }
        }
    }

    /// Writes what is queued.
    /// - Throws: ``ImageConversionError/noSpace`` or ``ImageConversionError/unwritable(_:)``.
    mutating func flush() throws(ImageConversionError) {
        if let failure { throw failure }
        var done = 0
        let start = written - Int64(pending.count)
        while done < pending.count {
            let n = pending.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(start) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let code = errno
                if code == ENOSPC || code == EDQUOT { throw .noSpace }
                throw .unwritable(systemMessage(code))
            }
            done += n
        }
        pending.removeAll(keepingCapacity: true)
    }
}
