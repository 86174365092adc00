import CShareKitHeif
import CShareKitImageCodecShim
import ShareKitImageConversionInterface

/// HEIF, HEIC and AVIF through libheif: the primary image, decoded whole
/// (libheif 1.15 has no row or tile interface), with the file's own
/// transformations (rotation `irot`, mirroring `imir`, cropping `clap`)
/// applied by libheif. An EXIF Orientation inside a HEIF file is not applied
/// again: HEIF (and MIAF) make the transformations the only orientation.
///
/// Memory: the compressed data of the image (at most
/// ``JPEGImageConverter/maximumEncodedBytes``) and the decoded image, about
/// 4.5 bytes a pixel while libheif turns YCbCr into RGB (a grid or an
/// overlay: its canvas, 3 bytes a pixel, 6 at more than 8 bits, beside the
/// one tile or layer being decoded), at most `maximumPixels` pixels.
/// ``HEIFStructure`` checks every image of the file at the size it decodes
/// to before libheif reads it; the header's sizes are checked again after.
struct HEIFDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        guard source.size <= JPEGImageConverter.maximumEncodedBytes else {
            throw .encodedDataTooLarge(size: source.size, limit: JPEGImageConverter.maximumEncodedBytes)
        }
        // libheif 1.15 checks an image's ispe, not what a grid or an overlay
        // decodes to, nor a stream larger than its ispe: every image of the
        // file is measured here first.
        try HEIFStructure.check(source, maximumPixels: options.maximumPixels)
        guard let reader = sk_heif_source_new(source.fd, source.size) else {
            throw .unreadable("libheif cannot be set up")
        }
        // The context reads image data from the source while decoding: the
        // source outlives it (deferred first, so freed last).
        defer { sk_heif_source_free(reader) }
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
        let raster = Raster(
            base: plane, width: decodedWidth, height: decodedHeight, stride: Int(stride), layout: layout)
        return try JPEGEncoding(options: options, destination: destination)
            .encode(raster, orientation: Orientation(exif: 1), metadata: metadata)
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
