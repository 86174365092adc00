import CShareKitImageCodecShim
import ShareKitImageConversionInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JPEG being written (libjpeg-turbo through the C helper, which turns
/// its `longjmp` errors into return codes): baseline, sequential, 4:2:0,
/// standard Huffman tables, so the encoder holds a few rows of 8 or 16
/// pixels, never the image.
final class JPEGWriter {
    /// libjpeg-turbo's largest width or height (`JPEG_MAX_DIMENSION`).
    static let maximumDimension = 65_500

    private let writer: OpaquePointer

    /// - Parameter fd: the destination, written with `pwrite` from offset 0.
    /// - Throws: ``ImageConversionError/unwritable(_:)`` when the encoder cannot be set up.
    init(fd: Int32) throws(ImageConversionError) {
        guard let writer = sk_jpeg_writer_new(fd) else { throw .unwritable("the JPEG encoder cannot be set up") }
        self.writer = writer
    }

    deinit { sk_jpeg_writer_free(writer) }

    /// Writes the header and the metadata blocks.
    /// - Parameters:
    ///   - exif: the whole APP1 payload (`Exif\0\0` and the TIFF structure), or nil.
    ///   - xmp: the whole APP1 payload (namespace and packet), or nil.
    ///   - icc: an ICC profile, or nil.
    /// - Throws: ``ImageConversionError`` when it cannot be written.
    func start(width: Int, height: Int, quality: Int, exif: [UInt8]?, xmp: [UInt8]?, icc: [UInt8]?)
        throws(ImageConversionError)
    {
        guard width > 0, height > 0, width <= Self.maximumDimension, height <= Self.maximumDimension else {
            throw .unsupported(
                "a JPEG can be at most \(Self.maximumDimension) pixels wide and high; this photo is \(width) × \(height)"
            )
        }
        let status = withOptionalBytes(exif) { exifPointer, exifCount in
            withOptionalBytes(xmp) { xmpPointer, xmpCount in
                withOptionalBytes(icc) { iccPointer, iccCount in
                    sk_jpeg_writer_start(
                        writer, UInt32(width), UInt32(height), Int32(quality), exifPointer, exifCount, xmpPointer,
                        xmpCount, iccPointer, iccCount)
                }
            }
        }
        try check(status)
    }

    /// Compresses `count` rows of RGB, `stride` bytes apart.
    /// - Throws: ``ImageConversionError`` when they cannot be written.
    func write(rows: UnsafePointer<UInt8>, count: Int, stride: Int) throws(ImageConversionError) {
        try check(sk_jpeg_writer_write_rows(writer, rows, UInt32(count), stride))
    }

    /// Ends the JPEG.
    /// - Returns: its length in bytes.
    /// - Throws: ``ImageConversionError`` when the rest cannot be written.
    func finish() throws(ImageConversionError) -> Int64 {
        try check(sk_jpeg_writer_finish(writer))
        return Int64(sk_jpeg_writer_bytes_written(writer))
    }

    private func check(_ status: Int32) throws(ImageConversionError) {
        guard status != 0 else { return }
        let code = sk_jpeg_writer_write_errno(writer)
        if code == ENOSPC || code == EDQUOT { throw .noSpace }
        throw .unwritable(String(cString: sk_jpeg_writer_message(writer)))
    }

    private func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let bytes, !bytes.isEmpty else { return body(nil, 0) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
