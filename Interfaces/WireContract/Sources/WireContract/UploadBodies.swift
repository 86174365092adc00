// The bodies of the upload operations: createUpload, uploadPart,
// getUpload, completeUpload.

/// The forms of whole-file digest createUpload takes (`digest_algorithm`),
/// and that getInstanceLimits lists in `upload_digest_algorithms`.
public enum UploadDigestAlgorithm {
    /// `sha256`: the SHA-256 of the whole file; the server reads the stored
    /// parts again at completion to check it. Every server takes it, and a
    /// body without `digest_algorithm` means it.
    public static let sha256 = "sha256"
    /// `sha256-composite`: the SHA-256 of the part digests (each the
    /// 32-byte SHA-256 of one part, cut at `part_size`) concatenated in part
    /// order. The server checks it against the digests it verified as the
    /// parts arrived, without reading the file again. Only for a server
    /// that lists it in `upload_digest_algorithms`.
    public static let sha256Composite = "sha256-composite"
}

/// The body of createUpload (`Upload`): the file about to be sent.
public struct UploadCreate: Codable, Hashable, Sendable {
    /// The file name, 1 to 255 bytes of UTF-8 without `/` or NUL.
    public var fileName: String
    /// Its content type.
    public var contentType: String
    /// Its size in bytes.
    public var size: Int64
    /// The whole file's digest in 64 lowercase hex digits, in the form
    /// ``digestAlgorithm`` names (the plain SHA-256 when that is nil).
    public var sha256: String
    /// ``UploadDigestAlgorithm/sha256Composite`` for the composite form; nil
    /// (left out) or ``UploadDigestAlgorithm/sha256`` for the plain SHA-256.
    public var digestAlgorithm: String?
    /// The part size the composite digest was cut at: it must be the
    /// server's; nil (left out) with the plain SHA-256.
    public var partSize: Int64?

    /// Makes a body with the whole file's plain SHA-256.
    /// - Parameters:
    ///   - fileName: the file name.
    ///   - contentType: the content type.
    ///   - size: the size.
    ///   - sha256: the digest.
    public init(fileName: String, contentType: String, size: Int64, sha256: String) {
        self.init(
            fileName: fileName, contentType: contentType, size: size, sha256: sha256, digestAlgorithm: nil,
            partSize: nil)
    }

    /// Makes a body with the digest in a given form.
    /// - Parameters:
    ///   - fileName: the file name.
    ///   - contentType: the content type.
    ///   - size: the size.
    ///   - sha256: the digest.
    ///   - digestAlgorithm: its form; nil for the plain SHA-256.
    ///   - partSize: the part size of a composite digest; nil otherwise.
    public init(
        fileName: String, contentType: String, size: Int64, sha256: String, digestAlgorithm: String?,
        partSize: Int64?
    ) {
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.digestAlgorithm = digestAlgorithm
        self.partSize = partSize
    }

    private enum CodingKeys: String, CodingKey {
        case fileName = "file_name"
        case contentType = "content_type"
        case size, sha256
        case digestAlgorithm = "digest_algorithm"
        case partSize = "part_size"
    }
}

/// The answer of createUpload (`UploadCreated`).
public struct UploadCreated: Codable, Hashable, Sendable {
    /// The upload.
    public var uploadID: String
    /// The size of every part but the last.
    public var partSize: Int64
    /// How many parts to send, numbered from 1.
    public var partsCount: Int64
    /// Always `pending`.
    public var uploadState: String
    /// When an unfinished upload is dropped (RFC 3339).
    public var expiresAt: String

    /// Makes an answer.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - partSize: the part size.
    ///   - partsCount: the number of parts.
    ///   - uploadState: `pending`.
    ///   - expiresAt: the expiry.
    public init(uploadID: String, partSize: Int64, partsCount: Int64, uploadState: String, expiresAt: String) {
        self.uploadID = uploadID
        self.partSize = partSize
        self.partsCount = partsCount
        self.uploadState = uploadState
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case uploadID = "upload_id"
        case partSize = "part_size"
        case partsCount = "parts_count"
        case uploadState = "upload_state"
        case expiresAt = "expires_at"
    }
}

/// The answer of getUpload (`UploadStatus`).
public struct UploadStatus: Codable, Hashable, Sendable {
    /// The upload.
    public var uploadID: String
    /// `pending`, `complete` or `aborted`.
    public var uploadState: String
    /// The file's size.
    public var size: Int64
    /// The part size.
    public var partSize: Int64
    /// The numbers of the parts the server has, ascending.
    public var receivedParts: [Int64]

    /// Makes an answer.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - uploadState: its state.
    ///   - size: the size.
    ///   - partSize: the part size.
    ///   - receivedParts: the parts received.
    public init(uploadID: String, uploadState: String, size: Int64, partSize: Int64, receivedParts: [Int64]) {
        self.uploadID = uploadID
        self.uploadState = uploadState
        self.size = size
        self.partSize = partSize
        self.receivedParts = receivedParts
    }

    private enum CodingKeys: String, CodingKey {
        case uploadID = "upload_id"
        case uploadState = "upload_state"
        case size
        case partSize = "part_size"
        case receivedParts = "received_parts"
    }

    /// Decodes a status as the clients always have: `upload_state` and
    /// `received_parts` are what they act on and are required; the other
    /// members are not read, so one that is missing or of another type is
    /// taken as empty or zero rather than failing the answer.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `upload_state` or `received_parts` is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uploadID = (try? container.decodeIfPresent(String.self, forKey: .uploadID)) ?? ""
        uploadState = try container.decode(String.self, forKey: .uploadState)
        size = (try? container.decodeIfPresent(Int64.self, forKey: .size)) ?? 0
        partSize = (try? container.decodeIfPresent(Int64.self, forKey: .partSize)) ?? 0
        receivedParts = try container.decode([Int64].self, forKey: .receivedParts)
    }
}

/// The answer of uploadPart (`UploadPartReceived`).
public struct UploadPartReceived: Codable, Hashable, Sendable {
    /// The part's number.
    public var part: Int64
    /// The bytes stored for it.
    public var size: Int64

    /// Makes an answer.
    /// - Parameters:
    ///   - part: the number.
    ///   - size: the bytes stored.
    public init(part: Int64, size: Int64) {
        self.part = part
        self.size = size
    }
}

/// The answer of completeUpload (`UploadCompleted`).
public struct UploadCompleted: Codable, Hashable, Sendable {
    /// The upload.
    public var uploadID: String
    /// Always `complete`.
    public var uploadState: String
    /// The file's digest as createUpload announced it, lowercase hex; nil
    /// only when a server left it out or sent null (a client then keeps
    /// the digest it computed).
    public var sha256: String?
    /// ``UploadDigestAlgorithm/sha256Composite`` when ``sha256`` is the
    /// composite digest; nil (left out) for the plain SHA-256.
    public var digestAlgorithm: String?

    /// Makes an answer for the plain SHA-256.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - uploadState: `complete`.
    ///   - sha256: the digest.
    public init(uploadID: String, uploadState: String = "complete", sha256: String?) {
        self.init(uploadID: uploadID, uploadState: uploadState, sha256: sha256, digestAlgorithm: nil)
    }

    /// Makes an answer.
    /// - Parameters:
    ///   - uploadID: the upload.
    ///   - uploadState: `complete`.
    ///   - sha256: the digest.
    ///   - digestAlgorithm: its form when not the plain SHA-256.
    public init(uploadID: String, uploadState: String = "complete", sha256: String?, digestAlgorithm: String?) {
        self.uploadID = uploadID
        self.uploadState = uploadState
        self.sha256 = sha256
        self.digestAlgorithm = digestAlgorithm
    }

    private enum CodingKeys: String, CodingKey {
        case uploadID = "upload_id"
        case uploadState = "upload_state"
        case sha256
        case digestAlgorithm = "digest_algorithm"
    }

    /// Decodes a completion as the clients always have: only `sha256` is
    /// read, and may be absent or null; the other members are not read, so
    /// one that is missing or of another type is taken as empty.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `sha256` is not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uploadID = (try? container.decodeIfPresent(String.self, forKey: .uploadID)) ?? ""
        uploadState = (try? container.decodeIfPresent(String.self, forKey: .uploadState)) ?? ""
        sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
        digestAlgorithm = (try? container.decodeIfPresent(String.self, forKey: .digestAlgorithm)) ?? nil
    }
}
