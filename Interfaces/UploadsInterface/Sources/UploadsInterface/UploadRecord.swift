/// What one process persists about an upload in progress so that another
/// process (the daemon, or the CLI run again) can resume it.
public struct UploadRecord: Hashable, Sendable, Codable {
    /// The server the upload lives on (`http://host:port`).
    public var serverOrigin: String
    /// The server's upload id.
    public var uploadID: String
    /// The version of the file that is being uploaded.
    public var identity: UploadFileIdentity
    /// The server's part size.
    public var partSize: Int64
    /// The number of parts.
    public var partsCount: Int
    /// The whole file's digest announced at createUpload, 64 lowercase hex
    /// digits, in the form ``digestAlgorithm`` names.
    public var sha256: String
    /// `sha256-composite` when ``sha256`` is the SHA-256 of the part
    /// digests; nil for the plain SHA-256 (and in records written before
    /// the composite form existed).
    public var digestAlgorithm: String?
    /// Each part's SHA-256 (base64, in part order), so a resuming process
    /// need not read the file again to send `Content-Digest`.
    public var partDigests: [String]

    /// Makes a record.
    /// - Parameters:
    ///   - serverOrigin: the server.
    ///   - uploadID: the upload id.
    ///   - identity: the file version.
    ///   - partSize: the part size.
    ///   - partsCount: the number of parts.
    ///   - sha256: the whole file's SHA-256 in hex.
    ///   - partDigests: each part's SHA-256 in base64.
    public init(
        serverOrigin: String, uploadID: String, identity: UploadFileIdentity, partSize: Int64, partsCount: Int,
        sha256: String, partDigests: [String]
    ) {
        self.init(
            serverOrigin: serverOrigin, uploadID: uploadID, identity: identity, partSize: partSize,
            partsCount: partsCount, sha256: sha256, partDigests: partDigests, digestAlgorithm: nil)
    }

    /// Makes a record whose digest may be the composite one.
    /// - Parameters:
    ///   - serverOrigin: the server.
    ///   - uploadID: the upload id.
    ///   - identity: the file version.
    ///   - partSize: the part size.
    ///   - partsCount: the number of parts.
    ///   - sha256: the digest announced at createUpload, in hex.
    ///   - partDigests: each part's SHA-256 in base64.
    ///   - digestAlgorithm: the form of `sha256`; nil for the plain SHA-256.
    public init(
        serverOrigin: String, uploadID: String, identity: UploadFileIdentity, partSize: Int64, partsCount: Int,
        sha256: String, partDigests: [String], digestAlgorithm: String?
    ) {
        self.digestAlgorithm = digestAlgorithm
        self.serverOrigin = serverOrigin
        self.uploadID = uploadID
        self.identity = identity
        self.partSize = partSize
        self.partsCount = partsCount
        self.sha256 = sha256
        self.partDigests = partDigests
    }
}

/// Where upload records are kept, one per server and file path.
///
/// Implementations write atomically (a reader sees the old record or the
/// new one, never half of one) and are safe across processes.
public protocol UploadRecordStore: Sendable {
    /// The record for a file on a server, if one exists and its identity
    /// (path, size, mtime) equals `identity`; a record for another version of
    /// the file is removed and nil returned.
    /// - Parameters:
    ///   - identity: the file version to resume.
    ///   - serverOrigin: the server.
    /// - Returns: the record, or nil.
    /// - Throws: ``UploadRecordStoreError`` when the store cannot be read.
    func record(for identity: UploadFileIdentity, serverOrigin: String) throws(UploadRecordStoreError) -> UploadRecord?

    /// Saves a record, replacing the one for the same server and path.
    /// - Parameter record: the record.
    /// - Throws: ``UploadRecordStoreError`` when it cannot be written.
    func save(_ record: UploadRecord) throws(UploadRecordStoreError)

    /// Removes the record for a server and path; a missing one is fine.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - serverOrigin: the server.
    /// - Throws: ``UploadRecordStoreError`` when it cannot be removed.
    func removeRecord(path: String, serverOrigin: String) throws(UploadRecordStoreError)

    /// The part size a server last answered createUpload with, so that the
    /// next upload computes its part digests in the same pass as the
    /// whole-file digest; nil when none is known.
    /// - Parameter serverOrigin: the server.
    /// - Returns: the part size, or nil.
    func lastPartSize(serverOrigin: String) -> Int64?

    /// Remembers the part size a server answered createUpload with.
    /// - Parameters:
    ///   - partSize: the part size.
    ///   - serverOrigin: the server.
    func rememberPartSize(_ partSize: Int64, serverOrigin: String)
}

extension UploadRecordStore {
    /// Stores that keep no part sizes know none.
    /// - Parameter serverOrigin: the server.
    /// - Returns: nil.
    public func lastPartSize(serverOrigin: String) -> Int64? { nil }

    /// Stores that keep no part sizes forget it.
    /// - Parameters:
    ///   - partSize: the part size.
    ///   - serverOrigin: the server.
    public func rememberPartSize(_ partSize: Int64, serverOrigin: String) {}
}

/// An upload record store failed; the text says what and where.
public struct UploadRecordStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public let description: String

    /// - Parameter description: what happened.
    public init(_ description: String) { self.description = description }
}
