import CShareKitImageCodecShim
import ShareKitImageConversionInterface

/// TIFF through libtiff's RGBA interface (any photometric, bit depth,
/// compression and planar layout libtiff reads), first image only (the
/// other pages of the file are never read), read band by band: a band is
/// one strip or one row of tiles.
///
/// Memory: when the orientation keeps the row order (normal, mirrored), one
/// band at a time, 4 bytes × width × band height: proportional to the
/// width, not to the file. Turned orientations need every row before the
/// first output row, so the image is held whole (4 bytes a pixel). Either
/// way at most `maximumPixels` pixels, checked before any strip is read
/// (and so is a tile, which libtiff decodes whole), and no single allocation of libtiff above
/// ``JPEGImageConverter/maximumEncodedBytes``.
struct TIFFDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions

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
        let encoding = JPEGEncoding(options: options, destination: destination)
        let band = max(1, min(Int(bandRows), h))
        if orientation.keepsRowOrder {
            let started = try encoding.start(width: w, height: h, metadata: metadata)
            let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * band * 4)
            defer { pixels.deallocate() }
            var row = 0
            while row < h {
                try started.emitter.stopIfAsked()
                let count = min(band, h - row)
                try read(reader, row: row, count: count, into: pixels)
                let raster = Raster(base: pixels, width: w, height: count, stride: w * 4, layout: .rgbaPremultiplied)
                try started.emitter.emit(raster, orientation: orientation)
                row += count
            }
            return try started.finish()
        }
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
        defer { pixels.deallocate() }
        var row = 0
        while row < h {
            if let stop = options.checkpoint() { throw .stopped(stop) }
            let count = min(band, h - row)
            try read(reader, row: row, count: count, into: pixels + row * w * 4)
            row += count
        }
        let raster = Raster(base: pixels, width: w, height: h, stride: w * 4, layout: .rgbaPremultiplied)
        return try encoding.encode(raster, orientation: orientation, metadata: metadata)
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
