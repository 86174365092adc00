import CShareKitImageCodecLoader
public import ShareKitImageConversionInterface

/// Converts HEIF and HEIC, AVIF, WebP, TIFF, PNG and GIF pictures into
/// JPEG with Debian's libheif, libwebp, libtiff, libpng, giflib and
/// libjpeg-turbo (see the architecture decision "Photos as JPEG"), and
/// removes the location and identifying metadata of a JPEG or PNG sent as
/// it is without re-encoding it.
///
/// The format is told from the file's first bytes, not from the content
/// type it was sent as. The decoders differ in what they must hold (see
/// each one), but every image is refused above
/// ``JPEGConversionOptions/maximumPixels`` before its pixels are decoded,
/// and the encoder holds a few rows, never the image: baseline JPEG,
/// standard tables, 4:2:0.
public struct JPEGImageConverter: ImageConverting {
    /// The most compressed data a decoder that reads whole files (libheif,
    /// libwebp) may be given, and libtiff's largest single allocation: 256 MiB.
    public static let maximumEncodedBytes: Int64 = 256 << 20

    /// The most decoded pixels a decoder that cannot hand out rows in the
    /// output's order holds at once (a band of rows or of columns of the
    /// stored image): 48 MiB, a third of a 48-megapixel photo in RGB. A
    /// photo larger than that is decoded in several passes, each keeping
    /// one band (docs/adr/0041-photos-in-bounded-memory.md).
    static let defaultBandBytes = 48 << 20

    /// The band budget of this converter (smaller in tests, to see several bands of a small picture).
    let bandBytes: Int

    /// Whether a HEIF grid is decoded a tile at a time (the tests compare it with libheif's whole canvas).
    let decodesTiles: Bool

    /// Makes a converter.
    public init() {
        self.bandBytes = Self.defaultBandBytes
        self.decodesTiles = true
    }

    /// Makes a converter whose decoders hold at most `bandBytes` of decoded
    /// pixels at once, so that a small test picture takes several passes,
    /// and which leaves HEIF grids to libheif whole unless `decodesTiles`.
    init(bandBytes: Int = defaultBandBytes, decodesTiles: Bool = true) {
        self.bandBytes = max(1, bandBytes)
        self.decodesTiles = decodesTiles
    }

    /// `image/heif` (HEIC is its alias), `image/avif`, `image/webp`, `image/tiff`, `image/png`, `image/gif`.
    public var readableContentTypes: Set<String> {
        ["image/heif", "image/avif", "image/webp", "image/tiff", "image/png", "image/gif"]
    }

    /// `image/jpeg` and `image/png`: their metadata lives in blocks of its
    /// own (marker segments, chunks) that can be left out or rebuilt
    /// without touching the image data.
    public var metadataRewritableContentTypes: Set<String> { ["image/jpeg", "image/png"] }

    /// Copies a JPEG or PNG without its location and identifying metadata;
    /// see ``ImageConverting/removeMetadata(source:destination:options:)``
    /// and the rule of the architecture decision "Photos as JPEG".
    /// - Returns: the copy's length and what was removed.
    /// - Throws: ``ImageConversionError``: `unsupported` for a file that is
    ///   neither, `malformed` for a JPEG whose segments cannot be told
    ///   apart, I/O errors, `stopped`.
    public func removeMetadata(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> MetadataRemoval
    {
        let file = try SourceFile(fd: source)
        let head = try file.bytes(at: 0, count: 8)
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try JPEGMetadataRemover(source: file, options: options).remove(into: destination)
        }
        if head == PNGChunks.signature {
            return try PNGMetadataRemover(source: file, options: options).remove(into: destination)
        }
        throw .unsupported("it is not a JPEG or PNG image")
    }

    /// Converts the image in `source` into a JPEG in `destination`; see
    /// ``ImageConverting/convertToJPEG(source:destination:options:)``.
    /// - Returns: the JPEG's size and whether location metadata was removed.
    /// - Throws: ``ImageConversionError``: `unsupported` for a file that is
    ///   none of the formats read here (or an animated WebP), `malformed`
    ///   for a damaged or truncated one, `tooManyPixels` above the limit,
    ///   `stopped` when the checkpoint said so, I/O errors, and
    ///   `unsupported` naming the library when a codec the format needs
    ///   cannot be loaded (they are opened here, on first use).
    public func convertToJPEG(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> JPEGConversion
    {
        let file = try SourceFile(fd: source)
        if let stop = options.checkpoint() { throw .stopped(stop) }
        switch ImageFormat(signature: try file.bytes(at: 0, count: 16)) {
        case .heif:
            try CodecLibraries.load(sk_codec_library_heif, sk_codec_library_jpeg)
            return try HEIFDecoder(source: file, options: options, decodesTiles: decodesTiles).convert(
                into: destination)
        case .webp:
            try CodecLibraries.load(sk_codec_library_webp, sk_codec_library_jpeg)
            return try WebPDecoder(source: file, options: options, bandBytes: bandBytes).convert(into: destination)
        case .tiff:
            try CodecLibraries.load(sk_codec_library_tiff, sk_codec_library_jpeg)
            return try TIFFDecoder(source: file, options: options, bandBytes: bandBytes).convert(into: destination)
        case .png:
            try CodecLibraries.load(sk_codec_library_png, sk_codec_library_jpeg)
            return try PNGDecoder(source: file, options: options).convert(into: destination)
        case .gif:
            try CodecLibraries.load(sk_codec_library_gif, sk_codec_library_jpeg)
            return try GIFDecoder(source: file, options: options).convert(into: destination)
        case nil: throw .unsupported("it is not a HEIF, AVIF, WebP, TIFF, PNG or GIF image")
        }
    }
}

/// The formats read, by their first bytes.
enum ImageFormat {
    case heif
    case webp
    case tiff
    case png
    case gif

    /// The format whose signature `bytes` start with, or nil.
    init?(signature bytes: [UInt8]) {
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            self = .heif
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            self = .webp
        } else if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        {
            self = .tiff
        } else if bytes.starts(with: PNGChunks.signature) {
            self = .png
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }
}
