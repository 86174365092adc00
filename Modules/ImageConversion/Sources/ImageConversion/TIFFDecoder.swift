import CShareKitImageCodecShim
import ShareKitImageConversionInterface

/// TIFF through libtiff's RGBA interface (any photometric, bit depth,
/// compression and planar layout libtiff reads), first image only (the
/// other pages of the file are never read), read band by band: a band is
/// one strip or one row of tiles, what libtiff decodes at once.
///
/// Memory: when the orientation keeps rows whole (1 to 4), one band at a
/// time, 4 bytes × width × band height: proportional to the width, not to
/// the file; bottom band first for the orientations turned upside down (3,
/// 4). The orientations that swap the axes (5 to 8) need columns: the
/// image is read in several passes, each keeping a band of whole columns
/// (4 bytes a pixel, at most the converter's `bandBytes`, 48 MiB) beside
/// one band of rows, so a 48-megapixel photo takes about four passes over
/// the file instead of holding 190 MB of pixels. At most `maximumPixels`
/// pixels, checked before any strip is read (and so is a tile, which
/// libtiff decodes whole), and no single allocation of libtiff above
/// ``JPEGImageConverter/maximumEncodedBytes``.
struct TIFFDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions
    let bandBytes: Int

    static let iccTag: UInt16 = 34675
    static let xmpTag: UInt16 = 700

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        guard let reader = sk_tiff_open(source.fd, UInt64(source.size), JPEGImageConverter.maximumEncodedBytes)
        else { throw .unreadable("libtiff cannot be set up") }
        defer { sk_tiff_close(reader) }
        var width: UInt32 = 0
        var height: UInt32 = 0
        var bandRows: UInt32 = 0
        var tileWidth: UInt32 = 0
        var tileLength: UInt32 = 0
        var tag: UInt16 = 1
        guard sk_tiff_begin(reader, &width, &height, &bandRows, &tileWidth, &tileLength, &tag) == 0 else {
            throw .malformed(String(cString: sk_tiff_message(reader)))
        }
        let (w, h) = (Int(width), Int(height))
        guard w > 0, h > 0 else { throw .malformed("the image has no size") }
        // The image, and a tile: libtiff decodes a whole tile, whatever part of it the image uses.
        for (a, b) in [(w, h), (Int(tileWidth), Int(tileLength))] {
            guard a.multipliedReportingOverflow(by: b).partialValue <= options.maximumPixels else {
                throw .tooManyPixels(width: a, height: b, limit: options.maximumPixels)
            }
        }
        let orientation = Orientation(exif: Int(tag))
        let metadata = readMetadata()
        let output = orientation.outputSize(width: w, height: h)
        let started = try JPEGEncoding(options: options, destination: destination)
            .start(width: output.width, height: output.height, metadata: metadata)
        let band = max(1, min(Int(bandRows), h))
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: w * band * 4)
        defer { rows.deallocate() }
        if !orientation.swapsAxes {
            for part in orientation.bands(width: w, height: h, span: band) {
                try started.emitter.stopIfAsked()
                try read(reader, row: part.y, count: part.height, into: rows)
                let raster = Raster(
                    base: rows, width: w, height: part.height, stride: w * 4, layout: .rgbaPremultiplied)
                try started.emitter.emit(raster, orientation: orientation)
            }
            return try started.finish()
        }
        // Whole columns, a band of them per pass over the file.
        let span = max(1, min(w, bandBytes / (h * 4)))
        let columns = UnsafeMutablePointer<UInt8>.allocate(capacity: span * h * 4)
        defer { columns.deallocate() }
        for part in orientation.bands(width: w, height: h, span: span) {
            var row = 0
            while row < h {
                try started.emitter.stopIfAsked()
                let count = min(band, h - row)
                try read(reader, row: row, count: count, into: rows)
                for index in 0..<count {
                    (columns + (row + index) * part.width * 4).update(
                        from: rows + index * w * 4 + part.x * 4, count: part.width * 4)
                }
                row += count
            }
            let raster = Raster(
                base: columns, width: part.width, height: h, stride: part.width * 4, layout: .rgbaPremultiplied)
            try started.emitter.emit(raster, orientation: orientation)
        }
        return try started.finish()
    }

    private func read(_ reader: OpaquePointer, row: Int, count: Int, into pixels: UnsafeMutablePointer<UInt8>)
        throws(ImageConversionError)
    {
        guard sk_tiff_read_band(reader, UInt32(row), UInt32(count), pixels) == 0 else {
            throw .malformed(String(cString: sk_tiff_message(reader)))
        }
    }

    /// The file's own first directory is its metadata: the descriptive
    /// tags, the EXIF and GPS directories, the ICC profile and XMP packet.
    /// Read by ``TIFFDirectories`` with `pread`, within its byte budget;
    /// a read error leaves the metadata out, never the photo.
    private func readMetadata() -> PhotoMetadata {
        let source = self.source
        let directories = TIFFDirectories.parse { offset, count in
            guard let bytes = try? source.bytes(at: offset, count: count), bytes.count == count else { return nil }
            return bytes
        }
        return PhotoMetadata(
            exif: directories, xmp: directories?.primaryBytes(tag: Self.xmpTag),
            icc: directories?.primaryBytes(tag: Self.iccTag))
    }
}
