public import ShareKitCore

/// An item after intake: its kind and, for attachments, a verified copy in
/// the destination folder with a concrete content type.
public struct IntakeItem: Hashable, Sendable {
    /// What the item is.
    public var kind: ShareItemKind
    /// What the person named (a path, a URL, "standard input").
    public var origin: String
    /// For attachments: the file's name inside the destination folder, a
    /// plain name (no `/`, no leading `.`) chosen by intake.
    public var storedName: String?
    /// For attachments: the name the server is told (the original base name).
    public var fileName: String?
    /// For attachments: the concrete content type to upload with, one the
    /// server accepts (the detected type or its nearest accepted supertype).
    public var contentType: String?
    /// For attachments: the type detected from the bytes and the name,
    /// before it was mapped to an accepted type (for messages).
    public var detectedContentType: String?
    /// For attachments: the size of the copy in bytes (verified against the source).
    public var size: Int64
    /// For links and text: what goes into the message text.
    public var text: String?
    /// For a photo the server took only as JPEG: how it was converted (nil
    /// for everything kept as it was).
    public var conversion: IntakeConversion?
    /// For attachments copied from a regular file when the policy asked for
    /// them (``IntakePolicy/partDigestSize``): the SHA-256 of each part of
    /// the copy, hashed while it was made; nil otherwise.
    public var partDigests: FilePartDigests?

    /// Makes an item.
    public init(
        kind: ShareItemKind, origin: String, storedName: String? = nil, fileName: String? = nil,
        contentType: String? = nil, detectedContentType: String? = nil, size: Int64 = 0, text: String? = nil,
        conversion: IntakeConversion? = nil
    ) {
        self.kind = kind
        self.origin = origin
        self.storedName = storedName
        self.fileName = fileName
        self.contentType = contentType
        self.detectedContentType = detectedContentType
        self.size = size
        self.text = text
        self.conversion = conversion
    }
}

/// A photo converted into JPEG during intake, because the server does not
/// accept its type but accepts JPEG. The original is never changed: the
/// JPEG is a new file in the destination folder.
public struct IntakeConversion: Hashable, Sendable {
    /// The photo's own type (`image/heif`).
    public var originalContentType: String
    /// The JPEG's width in pixels, the orientation applied.
    public var width: Int
    /// The JPEG's height in pixels.
    public var height: Int
    /// Whether the photo said where it was taken and the JPEG does not
    /// (``IntakePolicy/keepImageMetadata`` keeps it).
    public var removedLocation: Bool

    /// Makes a description of a conversion.
    public init(originalContentType: String, width: Int, height: Int, removedLocation: Bool) {
        self.originalContentType = originalContentType
        self.width = width
        self.height = height
        self.removedLocation = removedLocation
    }
}

/// What intake checks before copying or accepting anything.
public struct IntakePolicy: Hashable, Sendable {
    /// The content types the server accepts (`accepted_content_types` of
    /// getInstanceLimits); nil when unknown (then every concrete type passes
    /// and the server decides).
    public var acceptedContentTypes: [String]?
    /// `file_max_upload_bytes`; nil when unknown.
    public var fileMaxUploadBytes: Int64?
    /// The deadline of each load (one file, standard input, a FIFO).
    public var loadTimeout: Duration
    /// Standard input that is text and at most this long becomes message
    /// text; longer text is attached as a file.
    public var maximumInlineTextBytes: Int
    /// A photo converted into JPEG keeps its location and XMP
    /// (`share send --keep-metadata`); by default they are dropped.
    public var keepImageMetadata: Bool
    /// The part size at which a copy of a regular file is hashed while it
    /// is made (``IntakeItem/partDigests``): the server's `upload_part_size`
    /// when it takes the composite upload digest, so the upload needs no
    /// pass of its own over the file. Nil (the default) hashes nothing.
    public var partDigestSize: Int64?

    /// Makes a policy.
    public init(
        acceptedContentTypes: [String]? = nil, fileMaxUploadBytes: Int64? = nil, loadTimeout: Duration = .seconds(30),
        maximumInlineTextBytes: Int = 16 * 1024, keepImageMetadata: Bool = false
    ) {
        self.acceptedContentTypes = acceptedContentTypes
        self.fileMaxUploadBytes = fileMaxUploadBytes
        self.loadTimeout = loadTimeout
        self.maximumInlineTextBytes = maximumInlineTextBytes
        self.keepImageMetadata = keepImageMetadata
    }
}

/// Copy progress of one attachment (intake of a large file takes time too).
public struct IntakeProgress: Hashable, Sendable {
    /// Which item (index into the sources).
    public var index: Int
    /// Bytes copied so far.
    public var copiedBytes: Int64
    /// The source's size when known (regular files), else nil.
    public var totalBytes: Int64?

    /// Makes a progress value.
    public init(index: Int, copiedBytes: Int64, totalBytes: Int64?) {
        self.index = index
        self.copiedBytes = copiedBytes
        self.totalBytes = totalBytes
    }
}
