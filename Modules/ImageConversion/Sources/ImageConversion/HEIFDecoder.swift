import CShareKitHeif
import CShareKitImageCodecShim
import ShareKitImageConversionInterface

/// HEIF, HEIC and AVIF through libheif, with the file's own
/// transformations (rotation `irot`, mirroring `imir`, cropping `clap`)
/// applied. An EXIF Orientation inside a HEIF file is not applied again:
/// HEIF (and MIAF) make the transformations the only orientation.
///
/// A primary image made of tiles, as phones write it (a `grid`), is decoded
/// a band of tiles at a time, each tile by libheif on its own
/// (``HEIFTiledPrimary``): a row of tiles, or a column of them when the
/// rotation swaps the axes, in the order the JPEG's rows need them. Memory:
/// the band (3 bytes a pixel × the canvas's width × a tile's height, about
/// 12 MiB for a 48-megapixel iPhone photo) and one tile being decoded.
///
/// Any other image (one coded image, an overlay, a grid with alpha or with
/// cropping) is decoded whole, since libheif 1.15 has no row or tile
/// interface: the compressed data (at most
/// ``JPEGImageConverter/maximumEncodedBytes``) and the decoded image, about
/// 4.5 bytes a pixel while libheif turns YCbCr into RGB, at most
/// `maximumPixels` pixels. ``HEIFStructure`` checks every image of the file
/// at the size it decodes to before libheif reads it; the header's sizes
/// are checked again after.
struct HEIFDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions
    let decodesTiles: Bool

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        guard source.size <= JPEGImageConverter.maximumEncodedBytes else {
            throw .encodedDataTooLarge(size: source.size, limit: JPEGImageConverter.maximumEncodedBytes)
        }
        // libheif 1.15 checks an image's ispe, not what a grid or an overlay
        // decodes to, nor a stream larger than its ispe: every image of the
        // file is measured here first.
        let structure = try HEIFStructure.check(source, maximumPixels: options.maximumPixels)
        return try withPrimary { handle, reader throws(ImageConversionError) in
            let width = Int(heif_image_handle_get_width(handle))
            let height = Int(heif_image_handle_get_height(handle))
            let storedWidth = Int(heif_image_handle_get_ispe_width(handle))
            let storedHeight = Int(heif_image_handle_get_ispe_height(handle))
            for (w, h) in [(width, height), (storedWidth, storedHeight)] where w > 0 && h > 0 {
                guard w.multipliedReportingOverflow(by: h).partialValue <= options.maximumPixels, w <= Int(Int32.max),
                    h <= Int(Int32.max)
                else { throw .tooManyPixels(width: w, height: h, limit: options.maximumPixels) }
            }
            guard width > 0, height > 0 else { throw .malformed("the image has no size") }
            let metadata = PhotoMetadata(exif: exif(handle), xmp: xmp(handle), icc: icc(handle))
            if let stop = options.checkpoint() { throw .stopped(stop) }

            let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            if decodesTiles, !hasAlpha, let structure, let tiled = try HEIFTiledPrimary(structure),
                let tile = try tileSize(tiled), tiled.isCovered(byTiles: tile),
                tiled.orientation.outputSize(width: tiled.width, height: tiled.height) == (width, height)
            {
                return try convertTiles(tiled, tile: tile, metadata: metadata, into: destination)
            }
            return try decode(handle, reader: reader, hasAlpha: hasAlpha) { raster throws(ImageConversionError) in
                try JPEGEncoding(options: options, destination: destination)
                    .encode(raster, orientation: Orientation(exif: 1), metadata: metadata)
            }
        }
    }

    /// Sets up a libheif context over the file (seen with `patches` laid
    /// over it) and calls `body` with its primary image and the source.
    private func withPrimary<R>(
        patches: [(offset: Int64, bytes: [UInt8])] = [],
        _ body: (OpaquePointer, OpaquePointer) throws(ImageConversionError) -> R
    ) throws(ImageConversionError) -> R {
        guard let reader = sk_heif_source_new(source.fd, source.size) else {
            throw .unreadable("libheif cannot be set up")
        }
        // The context reads image data from the source while decoding: the
        // source outlives it (deferred first, so freed last).
        defer { sk_heif_source_free(reader) }
        for patch in patches {
            guard sk_heif_source_patch(reader, patch.offset, patch.bytes, patch.bytes.count) == 0 else {
                throw .unreadable("libheif cannot be set up")
            }
        }
        guard let context = heif_context_alloc() else { throw .unreadable("libheif cannot be set up") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(JPEGWriter.maximumDimension))
        // Tiles one at a time, in this thread: one tile's buffers beside the
        // canvas, never one for each of libheif's decoding threads.
        heif_context_set_max_decoding_threads(context, 0)
        try Self.check(sk_heif_read(context, reader), reader: reader)

        var handlePointer: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &handlePointer), reader: reader)
        guard let handle = handlePointer else { throw .malformed("the file has no primary image") }
        defer { heif_image_handle_release(handle) }
        return try body(handle, reader)
    }

    /// Decodes the image of `handle` into 8-bit RGB (RGBA with alpha) and calls `body` with it.
    private func decode<R>(
        _ handle: OpaquePointer, reader: OpaquePointer, hasAlpha: Bool,
        _ body: (Raster) throws(ImageConversionError) -> R
    ) throws(ImageConversionError) -> R {
        guard let decoding = heif_decoding_options_alloc() else { throw .unreadable("libheif cannot be set up") }
        defer { heif_decoding_options_free(decoding) }
        decoding.pointee.convert_hdr_to_8bit = 1
        // A truncated or damaged image is an error, not a partly grey picture.
        decoding.pointee.strict_decoding = 1
        var imagePointer: OpaquePointer?
        try Self.check(
            heif_decode_image(
                handle, &imagePointer, heif_colorspace_RGB,
                hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, decoding),
            reader: reader)
        guard let image = imagePointer else { throw .malformed("nothing was decoded") }
        defer { heif_image_release(image) }
        if let stop = options.checkpoint() { throw .stopped(stop) }

        var stride: Int32 = 0
        let layout: PixelLayout =
            hasAlpha ? (heif_image_is_premultiplied_alpha(image) != 0 ? .rgbaPremultiplied : .rgba) : .rgb
        guard heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)
        else { throw .unsupported("libheif did not give 8-bit RGB for this image") }
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard decodedWidth > 0, decodedHeight > 0, Int(stride) >= decodedWidth * layout.bytesPerPixel else {
            throw .malformed("the decoded image has no usable size")
        }
        return try body(
            Raster(base: plane, width: decodedWidth, height: decodedHeight, stride: Int(stride), layout: layout))
    }

    /// The size of the grid's first tile (libheif takes it for every tile), or nil when it has none.
    private func tileSize(_ tiled: HEIFTiledPrimary) throws(ImageConversionError) -> (width: Int, height: Int)? {
        let size = try withPrimary(patches: tiled.patches(for: tiled.tiles[0])) {
            handle, _ throws(ImageConversionError) in
            (width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        }
        return size.width > 0 && size.height > 0 ? size : nil
    }

    /// Encodes a grid a band of tiles at a time: each tile decoded on its
    /// own and pasted into the band where libheif would paste it on the
    /// canvas (cut at the canvas's edges), each band emitted under the
    /// grid's transformations.
    private func convertTiles(
        _ tiled: HEIFTiledPrimary, tile: (width: Int, height: Int), metadata: PhotoMetadata,
        into destination: Int32
    ) throws(ImageConversionError) -> JPEGConversion {
        let orientation = tiled.orientation
        let output = orientation.outputSize(width: tiled.width, height: tiled.height)
        let started = try JPEGEncoding(options: options, destination: destination)
            .start(width: output.width, height: output.height, metadata: metadata)
        let span = orientation.swapsAxes ? tile.width : tile.height
        let bands = orientation.bands(width: tiled.width, height: tiled.height, span: span)
        let largest = bands.map { $0.width * $0.height }.max() ?? 0
        // A band of one tile (a grid one tile wide, or one high when turned;
        // heif-enc's own 1 × 1 grids) is emitted from the tile itself.
        let count = orientation.swapsAxes ? tiled.rows : tiled.columns
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: count == 1 ? 0 : largest * 3)
        defer { pixels.deallocate() }
        for band in bands {
            let stride = band.width * 3
            let (row, column) = (band.y / tile.height, band.x / tile.width)
            for index in 0..<count {
                try started.emitter.stopIfAsked()
                let (r, c) = orientation.swapsAxes ? (index, column) : (row, index)
                // Where the tile goes, relative to the band, cut at the canvas.
                let (x, y) = (c * tile.width - band.x, r * tile.height - band.y)
                let visibleWidth = min(tile.width, band.width - x)
                let visibleHeight = min(tile.height, band.height - y)
                guard visibleWidth > 0, visibleHeight > 0 else { continue }
                try withPrimary(patches: tiled.patches(for: tiled.tiles[r * tiled.columns + c])) {
                    handle, reader throws(ImageConversionError) in
                    try decode(handle, reader: reader, hasAlpha: false) { raster throws(ImageConversionError) in
                        guard raster.width == tile.width, raster.height == tile.height else {
                            throw .malformed("a tile of the grid is not the size of the first")
                        }
                        if count == 1 {
                            let visible = Raster(
                                base: raster.base, width: visibleWidth, height: visibleHeight, stride: raster.stride,
                                layout: .rgb)
                            try started.emitter.emit(visible, orientation: orientation)
                            return
                        }
                        for line in 0..<visibleHeight {
                            (pixels + (y + line) * stride + x * 3).update(
                                from: raster.base + line * raster.stride, count: visibleWidth * 3)
                        }
                    }
                }
            }
            guard count > 1 else { continue }
            let raster = Raster(base: pixels, width: band.width, height: band.height, stride: stride, layout: .rgb)
            try started.emitter.emit(raster, orientation: orientation)
        }
        return try started.finish()
    }

    /// The EXIF block: libheif gives it with a 4-byte offset to the TIFF header first.
    private func exif(_ handle: OpaquePointer) -> TIFFDirectories? {
        guard var bytes = metadataBlock(handle, type: "Exif", contentType: nil), bytes.count >= 4 else { return nil }
        let skip = Int(TIFFDirectories.uint32(bytes, at: 0, littleEndian: false))
        guard skip <= bytes.count - 4 else { return nil }
        bytes.removeFirst(4 + skip)
        if bytes.starts(with: JPEGMetadata.exifPrefix) { bytes.removeFirst(JPEGMetadata.exifPrefix.count) }
        return TIFFDirectories.parse(bytes)
    }

    private func xmp(_ handle: OpaquePointer) -> [UInt8]? {
        metadataBlock(handle, type: "mime", contentType: "application/rdf+xml")
    }

    /// The first metadata block of a type (and content type), at most
    /// ``TIFFDirectories/maximumValueBytes`` long.
    private func metadataBlock(_ handle: OpaquePointer, type: String, contentType: String?) -> [UInt8]? {
        let count = heif_image_handle_get_number_of_metadata_blocks(handle, type)
        guard count > 0, count < 64 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let filled = heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, count)
        for id in ids.prefix(Int(max(0, filled))) {
            if let contentType {
                guard let actual = heif_image_handle_get_metadata_content_type(handle, id),
                    String(cString: actual) == contentType
                else { continue }
            }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= TIFFDirectories.maximumValueBytes else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            let error = heif_image_handle_get_metadata(handle, id, &bytes)
            if error.code == heif_error_Ok { return bytes }
        }
        return nil
    }

    private func icc(_ handle: OpaquePointer) -> [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size <= JPEGMetadata.maximumICCBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        return heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok ? bytes : nil
    }

    /// A libheif error as a conversion error: a failed read of the
    /// descriptor is an I/O error, the rest is the file's fault.
    private static func check(_ error: heif_error, reader: OpaquePointer) throws(ImageConversionError) {
        guard error.code != heif_error_Ok else { return }
        let code = sk_heif_source_errno(reader)
        if code != 0 { throw .unreadable(systemMessage(code)) }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        if error.code == heif_error_Memory_allocation_error { throw .unsupported("libheif ran out of memory") }
        throw .malformed(message)
    }
}
