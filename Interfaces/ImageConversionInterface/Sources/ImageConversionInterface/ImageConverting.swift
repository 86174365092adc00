/// Converts a photo in a type the server does not take (HEIF and HEIC,
/// AVIF, WebP, TIFF) into a JPEG, which every server that takes photos
/// does: the Linux counterpart of the system converting library photos to
/// JPEG before a share extension uploads them.
///
/// A conversion reads the source and writes a new file; the source is never
/// changed. The orientation the photo asks for is applied to the pixels (the
/// JPEG says "normal"), and location metadata is dropped unless
/// ``JPEGConversionOptions/keepMetadata`` is set. Memory is bounded by the
/// pixel count (``JPEGConversionOptions/maximumPixels``), never by the file
/// size: an image beyond the limit is refused before it is decoded.
public protocol ImageConverting: Sendable {
    /// The content types this converter reads: canonical, lowercase media
    /// types without parameters (`image/heif`, `image/webp`, `image/tiff`,
    /// `image/png`, `image/gif`).
    var readableContentTypes: Set<String> { get }

    /// Converts the image read from `source` into a baseline JPEG written to
    /// `destination`. Blocking: run it off any cooperative thread pool.
    /// - Parameters:
    ///   - source: an open, readable descriptor of the image. It is read with
    ///     `pread` from offset 0 (its file position is neither used nor
    ///     moved) and never written or closed.
    ///   - destination: an open, writable, empty regular file; the JPEG is
    ///     written from offset 0. It is neither synced nor closed: the caller
    ///     owns it, and removes it when the conversion throws.
    ///   - options: metadata policy, pixel limit, quality and the checkpoint
    ///     that stops a conversion past its deadline.
    /// - Returns: the JPEG's pixel size, its length and what happened to the metadata.
    /// - Throws: ``ImageConversionError`` naming why; the destination then
    ///   holds an incomplete file.
    func convertToJPEG(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> JPEGConversion

    /// The content types ``removeMetadata(source:destination:options:)``
    /// rewrites without re-encoding (`image/jpeg`, `image/png`): a photo of
    /// such a type that the server takes as it is keeps no location either.
    var metadataRewritableContentTypes: Set<String> { get }

    /// Copies the photo in `source` to `destination` without its location
    /// and identifying metadata, by the same rule as a conversion without
    /// ``JPEGConversionOptions/keepMetadata``, and without re-encoding it:
    /// the image data is copied byte for byte, only metadata blocks are
    /// dropped or rebuilt (the orientation is kept, since the pixels are not
    /// turned). Blocking, as a conversion.
    /// - Parameters:
    ///   - source: an open, readable descriptor, read with `pread` from offset 0.
    ///   - destination: an open, writable, empty regular file, written from
    ///     offset 0, neither synced nor closed.
    ///   - options: the checkpoint that stops it past its deadline (the
    ///     metadata policy is the default one; to keep everything, copy the file).
    /// - Returns: the new file's length and what was removed.
    /// - Throws: ``ImageConversionError``: `malformed` for a file whose
    ///   metadata cannot be told from its image, `unsupported` for a type
    ///   this converter does not rewrite, I/O errors, `stopped`.
    func removeMetadata(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> MetadataRemoval
}

extension ImageConverting {
    /// None: a converter that does not say otherwise rewrites nothing.
    public var metadataRewritableContentTypes: Set<String> { [] }

    /// Refuses: a converter that does not say otherwise rewrites nothing.
    /// - Throws: ``ImageConversionError/unsupported(_:)`` always.
    public func removeMetadata(source: Int32, destination: Int32, options: JPEGConversionOptions)
        throws(ImageConversionError) -> MetadataRemoval
    {
        throw .unsupported("this converter does not remove metadata")
    }
}

/// What ``ImageConverting/removeMetadata(source:destination:options:)`` wrote.
public struct MetadataRemoval: Hashable, Sendable {
    /// The new file's length in bytes.
    public var size: Int64
    /// Whether the original said where it was taken and the copy does not.
    public var removedLocation: Bool
    /// Whether anything at all was left out or rebuilt (false: the copy is
    /// the original, byte for byte).
    public var changed: Bool

    /// Makes a result.
    public init(size: Int64, removedLocation: Bool, changed: Bool) {
        self.size = size
        self.removedLocation = removedLocation
        self.changed = changed
    }
}

/// How a conversion runs.
public struct JPEGConversionOptions: Sendable {
    /// The default ``maximumPixels``: 2^26 (64 megapixels, 8192 × 8192),
    /// above the largest photos of common phone cameras (48 and 50 MP).
    public static let defaultMaximumPixels = 1 << 26

    /// Keep the location (the GPS block of EXIF), the tags that name the
    /// camera's owner and serial numbers, and the XMP packet. Without it the
    /// JPEG carries the EXIF of the original without them, and no XMP
    /// (which can repeat the location).
    public var keepMetadata: Bool
    /// The most pixels (width × height) an image may have as decoded; a
    /// larger one is refused before it is decoded
    /// (``ImageConversionError/tooManyPixels(width:height:limit:)``). It
    /// holds for every image a file holds, not only the one converted: a
    /// HEIF file's tiles, the canvas they make, its thumbnails and its
    /// auxiliary images, for instance.
    public var maximumPixels: Int
    /// The JPEG quality, 1 to 100.
    public var quality: Int
    /// Asked between steps (rows, strips, chunks of input): a reason to
    /// stop, or nil to go on. Intake stops at the load's deadline and on
    /// Ctrl-C.
    public var checkpoint: @Sendable () -> ImageConversionStop?

    /// Makes options.
    /// - Parameters:
    ///   - keepMetadata: keep location, identifying tags and XMP (`share send --keep-metadata`).
    ///   - maximumPixels: the pixel limit.
    ///   - quality: the JPEG quality (clamped to 1...100).
    ///   - checkpoint: when to stop; never by default.
    public init(
        keepMetadata: Bool = false, maximumPixels: Int = Self.defaultMaximumPixels, quality: Int = 90,
        checkpoint: @escaping @Sendable () -> ImageConversionStop? = { nil }
    ) {
        self.keepMetadata = keepMetadata
        self.maximumPixels = maximumPixels
        self.quality = min(100, max(1, quality))
        self.checkpoint = checkpoint
    }
}

/// Why a conversion was told to stop.
public enum ImageConversionStop: Hashable, Sendable {
    /// The load's deadline has passed.
    case deadlineExceeded
    /// The person cancelled (Ctrl-C).
    case cancelled
}

/// What a conversion wrote.
public struct JPEGConversion: Hashable, Sendable {
    /// The JPEG's width in pixels, after the orientation was applied.
    public var width: Int
    /// The JPEG's height in pixels, after the orientation was applied.
    public var height: Int
    /// The JPEG's length in bytes.
    public var size: Int64
    /// Whether the original had location metadata that the JPEG does not.
    public var removedLocation: Bool

    /// Makes a result.
    public init(width: Int, height: Int, size: Int64, removedLocation: Bool) {
        self.width = width
        self.height = height
        self.size = size
        self.removedLocation = removedLocation
    }
}

/// Why a photo could not be converted. Every case reads as the end of a
/// sentence about the photo (`photo.heic: cannot be converted to JPEG: ...`).
public enum ImageConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The type or a feature of it is not converted (an animated WebP, a
    /// content type this converter does not read).
    case unsupported(String)
    /// The file is damaged, truncated or not what its type says; the
    /// decoder's own words.
    case malformed(String)
    /// The image has more pixels than the limit (a decompression bomb, or a
    /// panorama beyond what fits in memory).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The compressed data the decoder must hold is larger than it may.
    case encodedDataTooLarge(size: Int64, limit: Int64)
    /// The source could not be read.
    case unreadable(String)
    /// The JPEG could not be written.
    case unwritable(String)
    /// The file system is full.
    case noSpace
    /// The checkpoint said to stop.
    case stopped(ImageConversionStop)

    /// The message for a person.
    public var description: String {
        switch self {
        case .unsupported(let reason): return reason
        case .malformed(let reason): return "the file is damaged or not a complete image (\(reason))"
        case .tooManyPixels(let width, let height, let limit):
            return
                "\(width) × \(height) pixels is more than the \(limit / 1_000_000) megapixels (\(limit) pixels) "
                + "a photo may have to be converted"
        case .encodedDataTooLarge(let size, let limit):
            return "its compressed data (\(size) bytes) is more than the \(limit) bytes a conversion may hold"
        case .unreadable(let reason): return "it cannot be read: \(reason)"
        case .unwritable(let reason): return "the JPEG cannot be written: \(reason)"
        case .noSpace: return "no space left for the JPEG"
        case .stopped(.deadlineExceeded): return "the conversion did not finish in time"
        case .stopped(.cancelled): return "cancelled"
        }
    }
}
