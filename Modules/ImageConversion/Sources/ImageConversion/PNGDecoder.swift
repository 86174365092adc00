import CShareKitPNG
import ShareKitImageConversionInterface

/// PNG through libpng's simplified reading interface (libpng 1.6): the file
/// is read into memory (at most ``JPEGImageConverter/maximumEncodedBytes``,
/// in 64 KiB pieces with the deadline checked between them), its size read
/// from the header and checked against `maximumPixels` before a pixel
/// buffer exists, then decoded in one call into 8-bit RGBA (16-bit and
/// palette images converted by libpng, colours as sRGB); transparent
/// pixels are laid on white by the encoder. The chunks are read by this
/// code first, for the metadata (`eXIf`, whose orientation is applied, and
/// XMP) and to refuse an animated PNG (`acTL`), whose first frame is not
/// the picture a person sees moving. libpng's errors come back as return
/// codes and a message (the simplified interface catches its own `longjmp`).
///
/// Memory: the file, and the decoded image at 4 bytes a pixel.
struct PNGDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        var metadata = PhotoMetadata()
        var animated = false
        let chunks = PNGChunks(source: source)
        let walked = try chunks.walk { chunk throws(ImageConversionError) in
            switch chunk.type {
            case "acTL": animated = true
            case "eXIf": metadata.exif = try chunks.data(of: chunk).flatMap(PNGChunks.exif)
            case "iTXt":
                if metadata.xmp == nil, let data = try chunks.data(of: chunk) { metadata.xmp = PNGChunks.xmp(data) }
            default: break
            }
            return true
        }
        // libpng allocates an unknown chunk's declared length before it
        // reads it: a 701-byte file declaring a 1.7 GB chunk made it ask for
        // 1.7 GB. A chunk longer than the rest of the file cannot be read
        // anyway, so such a file is refused before libpng sees it.
        guard walked.complete else { throw .malformed("a chunk of the PNG file runs past its end, or it has no IEND") }
        if animated {
            throw .unsupported("an animated PNG has more than one picture and cannot be sent as a JPEG photo")
        }
        guard source.size <= JPEGImageConverter.maximumEncodedBytes else {
            throw .encodedDataTooLarge(size: source.size, limit: JPEGImageConverter.maximumEncodedBytes)
        }
        let file = try readWhole()
        var image = png_image()
        image.version = sk_png_image_version
        defer { png_image_free(&image) }
        let begun = file.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw .malformed(Self.message(image)) }
        let (width, height) = (Int(image.width), Int(image.height))
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= options.maximumPixels
        else { throw .tooManyPixels(width: width, height: height, limit: options.maximumPixels) }
        if let stop = options.checkpoint() { throw .stopped(stop) }
        image.format = sk_png_format_rgba
        let stride = width * 4
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
        defer { pixels.deallocate() }
        guard png_image_finish_read(&image, nil, pixels, Int32(stride), nil) != 0 else {
            throw .malformed(Self.message(image))
        }
        let raster = Raster(base: pixels, width: width, height: height, stride: stride, layout: .rgba)
        let orientation = Orientation(exif: metadata.exif?.orientation ?? 1)
        return try JPEGEncoding(options: options, destination: destination)
            .encode(raster, orientation: orientation, metadata: metadata)
    }

    /// The whole file, read in pieces with the checkpoint asked between them.
    private func readWhole() throws(ImageConversionError) -> [UInt8] {
        var file: [UInt8] = []
        file.reserveCapacity(Int(source.size))
        while Int64(file.count) < source.size {
            if let stop = options.checkpoint() { throw .stopped(stop) }
            let piece = try source.bytes(at: Int64(file.count), count: SequentialReader.bufferBytes)
            guard !piece.isEmpty else { break }
            file += piece
        }
        return file
    }

    /// libpng's message for the last failure.
    private static func message(_ image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng could not read it" : "libpng: \(text)"
    }
}
