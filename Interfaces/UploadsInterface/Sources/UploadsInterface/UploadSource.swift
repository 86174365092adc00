public import ShareKitCore

/// What identifies one version of a file on disk: its path, size and
/// modification time. An upload record is only resumed while all three
/// still match; a file that changed is uploaded from the start.
public struct UploadFileIdentity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// Its size in bytes.
    public var size: Int64
    /// Its modification time in nanoseconds since the Unix epoch.
    public var modificationTimeNanoseconds: Int64

    /// Makes an identity.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - size: its size in bytes.
    ///   - modificationTimeNanoseconds: its modification time (ns since the epoch).
    public init(path: String, size: Int64, modificationTimeNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
    }

    /// `path (size bytes, mtime ns)`.
    public var description: String { "\(path) (\(size) bytes, mtime \(modificationTimeNanoseconds) ns)" }
}

/// A file to upload: where it is and which version of it (``identity``),
/// with the name and content type the server is told.
public struct UploadSource: Hashable, Sendable {
    /// The file's identity (path, size, mtime) when the caller looked at it;
    /// the uploader refuses with `APIError.failed(.fileChanged)` when the
    /// file no longer matches it.
    public var identity: UploadFileIdentity
    /// The name sent as `file_name` (1 to 255 bytes, no `/`).
    public var fileName: String
    /// The concrete content type sent as `content_type`.
    public var contentType: String
    /// The part digests made when this version of the file was written
    /// (the share inbox's copy), or nil. The uploader uses them for the
    /// composite digest instead of reading the file to hash it when their
    /// part size is the server's and they fit the file's size; otherwise,
    /// and when the server refuses a part against them, it hashes the file.
    public var partDigests: FilePartDigests?

    /// Describes a file to upload.
    /// - Parameters:
    ///   - identity: the file's path, size and mtime.
    ///   - fileName: the name the server is told.
    ///   - contentType: the content type.
    public init(identity: UploadFileIdentity, fileName: String, contentType: String) {
        self.identity = identity
        self.fileName = fileName
        self.contentType = contentType
    }

    /// The file's path.
    public var path: String { identity.path }
    /// The file's size.
    public var size: Int64 { identity.size }
}
