import CShareKitWebP
import ShareKitImageConversionInterface

/// WebP through libwebp's incremental decoder: the file is fed in 64 KiB
/// pieces (the deadline is checked between them). The RIFF container is
/// read first, by this code, for the size (the canvas of VP8X and the
/// frame's own header, each checked against `maximumPixels` and against
/// each other before any pixel buffer exists), the EXIF, XMP and ICC
/// chunks, and whether the file is animated (not converted: a JPEG has one
/// frame). The orientation is EXIF's.
///
/// Memory: libwebp writes into one buffer of the whole output it is asked
/// for, so it is asked for a band at a time (its cropping): a band of
/// whole rows, or of whole columns for the orientations that swap the
/// axes, in the order the JPEG's rows need them, at most the converter's
/// `bandBytes` (48 MiB) of decoded pixels (3 bytes a pixel, 4 with alpha).
/// Each band is a decoding pass over the file (libwebp decodes every
/// macroblock row above the band's end): a 48-megapixel photo takes about
/// three passes. Beside the band, what libwebp keeps of the compressed
/// data (at most ``JPEGImageConverter/maximumEncodedBytes``).
struct WebPDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions
    let bandBytes: Int

    /// What the RIFF container says.
    struct Container {
        var width = 0
        var height = 0
        /// The size the VP8 or VP8L frame's own header says (libwebp decodes
        /// at that size); in an extended file it must be the canvas's.
        var frameWidth = 0
        var frameHeight = 0
        var hasAlpha = false
        var isAnimated = false
        /// Where the RIFF data ends (the file may have bytes after it).
        var end: Int64 = 0
        var metadata = PhotoMetadata()
    }

    static let pieceBytes = 64 * 1024
    /// The most chunks read before the image is found (real files have a handful).
    static let maximumChunks = 4096

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        let container = try readContainer()
        if container.isAnimated {
            throw .unsupported("an animated WebP has more than one picture and cannot be sent as a JPEG photo")
        }
        let (width, height) = (container.width, container.height)
        for (w, h) in [(width, height), (container.frameWidth, container.frameHeight)] {
            guard w.multipliedReportingOverflow(by: h).partialValue <= options.maximumPixels else {
                throw .tooManyPixels(width: w, height: h, limit: options.maximumPixels)
            }
        }
        guard container.frameWidth > 0, container.frameHeight > 0 else {
            throw .malformed("the WebP file has no frame")
        }
        guard container.frameWidth == width, container.frameHeight == height else {
            throw .malformed(
                "the WebP frame is \(container.frameWidth) × \(container.frameHeight) on a canvas of \(width) × \(height)"
            )
        }
        guard container.end <= JPEGImageConverter.maximumEncodedBytes else {
            throw .encodedDataTooLarge(size: container.end, limit: JPEGImageConverter.maximumEncodedBytes)
        }
        let layout: PixelLayout = container.hasAlpha ? .rgbaPremultiplied : .rgb
        let orientation = Orientation(exif: container.metadata.exif?.orientation ?? 1)
        let output = orientation.outputSize(width: width, height: height)
        let started = try JPEGEncoding(options: options, destination: destination)
            .start(width: output.width, height: output.height, metadata: container.metadata)
        // libwebp crops from even offsets only: every band but the last is an even number of rows or columns.
        let line = (orientation.swapsAxes ? height : width) * layout.bytesPerPixel
        let span = max(2, bandBytes / line) & ~1
        let bands = orientation.bands(width: width, height: height, span: span)
        let largest = bands.map { $0.width * $0.height }.max() ?? 0
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: largest * layout.bytesPerPixel)
        defer { pixels.deallocate() }
        for band in bands {
            let stride = band.width * layout.bytesPerPixel
            let whole = band.width == width && band.height == height
            try decode(container, band: whole ? nil : band, into: pixels, stride: stride, layout: layout)
            let raster = Raster(base: pixels, width: band.width, height: band.height, stride: stride, layout: layout)
            try started.emitter.emit(raster, orientation: orientation)
        }
        return try started.finish()
    }

    /// Decodes the whole frame, or only `band` of it, into `pixels`, rows `stride` bytes apart.
    private func decode(
        _ container: Container, band: Band?, into pixels: UnsafeMutablePointer<UInt8>, stride: Int,
        layout: PixelLayout
    )
        throws(ImageConversionError)
    {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .unreadable("libwebp cannot be set up") }
        config.output.colorspace = layout == .rgb ? MODE_RGB : MODE_rgbA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = pixels
        config.output.u.RGBA.stride = Int32(stride)
        config.output.u.RGBA.size = stride * (band?.height ?? container.height)
        if let band {
            config.options.use_cropping = 1
            config.options.crop_left = Int32(band.x)
            config.options.crop_top = Int32(band.y)
            config.options.crop_width = Int32(band.width)
            config.options.crop_height = Int32(band.height)
        }
        guard let decoder = WebPIDecode(nil, 0, &config) else { throw .unreadable("libwebp cannot be set up") }
        defer { WebPIDelete(decoder) }
        var piece = [UInt8](repeating: 0, count: Self.pieceBytes)
        var offset: Int64 = 0
        while offset < container.end {
            if let stop = options.checkpoint() { throw .stopped(stop) }
            let wanted = Int(min(Int64(Self.pieceBytes), container.end - offset))
            var failure: ImageConversionError?
            let count = piece.withUnsafeMutableBytes { raw -> Int in
                do throws(ImageConversionError) {
                    return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]), at: offset)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            guard count > 0 else { break }
            offset += Int64(count)
            let status = piece.withUnsafeBufferPointer { WebPIAppend(decoder, $0.baseAddress, count) }
            switch status {
            case VP8_STATUS_OK: return
            case VP8_STATUS_SUSPENDED: continue
            case VP8_STATUS_UNSUPPORTED_FEATURE: throw .unsupported("this WebP uses a feature libwebp does not decode")
            case VP8_STATUS_OUT_OF_MEMORY: throw .unsupported("libwebp ran out of memory")
            default: throw .malformed("the WebP data is damaged (libwebp status \(status.rawValue))")
            }
        }
        throw .malformed("the WebP data ends before the image does")
    }

    /// Walks the RIFF chunks up to the image data.
    private func readContainer() throws(ImageConversionError) -> Container {
        let header = try source.bytes(at: 0, count: 12)
        guard header.count == 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WEBP".utf8)
        else { throw .malformed("not a WebP file") }
        var container = Container()
        container.end = min(source.size, Int64(Self.uint32(header, 4)) + 8)
        var offset: Int64 = 12
        var extended = false
        for _ in 0..<Self.maximumChunks {
            guard offset + 8 <= container.end else { break }
            let chunk = try source.bytes(at: offset, count: 8)
            let fourCC = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = Int64(Self.uint32(chunk, 4))
            let payload = offset + 8
            switch fourCC {
            case "VP8X":
                let flags = try source.bytes(at: payload, count: 10)
                guard flags.count == 10 else { throw .malformed("the WebP header is cut short") }
                extended = true
                container.hasAlpha = flags[0] & 0x10 != 0
                container.isAnimated = flags[0] & 0x02 != 0
                container.width = Self.uint24(flags, 4) + 1
                container.height = Self.uint24(flags, 7) + 1
            case "ANIM", "ANMF":
                container.isAnimated = true
            case "EXIF":
                if let bytes = try metadataChunk(at: payload, size: size) {
                    let body = bytes.starts(with: JPEGMetadata.exifPrefix) ? Array(bytes.dropFirst(6)) : bytes
                    container.metadata.exif = TIFFDirectories.parse(body)
                }
            case "XMP ": container.metadata.xmp = try metadataChunk(at: payload, size: size)
            case "ICCP": container.metadata.icc = try metadataChunk(at: payload, size: size)
            case "VP8 ", "VP8L":
                try readFrameHeader(fourCC, at: payload, into: &container)
                if !extended { (container.width, container.height) = (container.frameWidth, container.frameHeight) }
            default: break
            }
            offset = payload + size + (size & 1)
        }
        guard container.width > 0, container.height > 0 else { throw .malformed("the WebP file has no image") }
        return container
    }

    /// The frame's size from its header (and for a lossless frame of a
    /// simple file, the alpha; an extended file says it in VP8X).
    private func readFrameHeader(_ fourCC: String, at payload: Int64, into container: inout Container)
        throws(ImageConversionError)
    {
        let head = try source.bytes(at: payload, count: 10)
        if fourCC == "VP8L" {
            guard head.count >= 5, head[0] == 0x2F else { throw .malformed("the lossless WebP header is damaged") }
            let bits = Self.uint32(head, 1)
            container.frameWidth = Int(bits & 0x3FFF) + 1
            container.frameHeight = Int((bits >> 14) & 0x3FFF) + 1
            if container.width == 0 { container.hasAlpha = bits & (1 << 28) != 0 }
        } else {
            guard head.count == 10, head[3] == 0x9D, head[4] == 0x01, head[5] == 0x2A else {
                throw .malformed("the WebP frame header is damaged")
            }
            container.frameWidth = Int(UInt16(head[6]) | UInt16(head[7]) << 8) & 0x3FFF
            container.frameHeight = Int(UInt16(head[8]) | UInt16(head[9]) << 8) & 0x3FFF
        }
    }

    private func metadataChunk(at payload: Int64, size: Int64) throws(ImageConversionError) -> [UInt8]? {
        guard size > 0, size <= Int64(TIFFDirectories.maximumValueBytes) else { return nil }
        let bytes = try source.bytes(at: payload, count: Int(size))
        return bytes.count == Int(size) ? bytes : nil
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func uint24(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
    }
}
