import CShareKitHeif
import Foundation
import ShareKitImageConversionInterface
import ShareKitSystemTesting

@testable import ShareKitImageConversion

extension QuadrantPicture {
    /// A HEIC written by libheif's own encoder, its pixels stored as this
    /// picture and an `irot`/`imir` transformation for `orientation`: what a
    /// phone writes for a photo taken with the phone upright.
    func heicWithTransformation(orientation: Int, to path: String) throws {
        guard let context = heif_context_alloc() else { throw TestPictureError("libheif") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 90))
        var image: OpaquePointer?
        try check(
            heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw TestPictureError("libheif plane")
        }
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y)
                let at = y * Int(stride) + x * 3
                plane[at] = UInt8(c.r)
                plane[at + 1] = UInt8(c.g)
                plane[at + 2] = UInt8(c.b)
            }
        }
        guard let options = heif_encoding_options_alloc() else { throw TestPictureError("libheif options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        try check(heif_context_encode_image(context, image, encoder, options, nil))
        try check(heif_context_write_to_file(context, path))
    }

    private func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw TestPictureError("libheif: \(error.message.map { String(cString: $0) } ?? "")")
    }

}

/// A conversion of one file into another in a scratch folder.
struct Conversion {
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory(prefix: "image-conversion-test") }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = scratch.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Converts `path` into `<path>.jpg`, or `<path>.<bandBytes>.jpg` by a
    /// converter whose decoders hold at most `bandBytes` of pixels at once.
    /// With `decodesTiles` false, a HEIF grid is decoded whole by libheif, into `<path>.whole.jpg`.
    func convert(
        _ path: String, options: JPEGConversionOptions = JPEGConversionOptions(), bandBytes: Int? = nil,
        decodesTiles: Bool = true
    ) throws(ImageConversionError) -> (JPEGConversion, String) {
        let output = path + (bandBytes.map { ".\($0)" } ?? "") + (decodesTiles ? "" : ".whole") + ".jpg"
        let converter = JPEGImageConverter(
            bandBytes: bandBytes ?? JPEGImageConverter.defaultBandBytes, decodesTiles: decodesTiles)
        let source = open(path, O_RDONLY | O_CLOEXEC)
        let destination = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(source)
            close(destination)
        }
        return (
            try converter.convertToJPEG(source: source, destination: destination, options: options), output
        )
    }

    /// Copies `path` into `<path>.out` without its location and identifying metadata.
    func removeMetadata(_ path: String) throws(ImageConversionError) -> (MetadataRemoval, String) {
        let output = path + ".out"
        let source = open(path, O_RDONLY | O_CLOEXEC)
        let destination = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(source)
            close(destination)
        }
        return (
            try JPEGImageConverter().removeMetadata(
                source: source, destination: destination, options: JPEGConversionOptions()),
            output
        )
    }

    func bytes(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    func remove() { scratch.remove() }
}
