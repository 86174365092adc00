public import ShareKitWireContract

/// The body of createUpload: the wire contract's type.
public typealias CreateUploadBody = UploadCreate

/// The answer of createUpload: the upload's id and how to cut the file.
/// A tolerant reading of the contract's ``ShareKitWireContract/UploadCreated``: only
/// the members the uploader uses are required (docs/adr/0025-shared-wire-contract.md).
public struct CreatedUploadAnswer: Decodable, Hashable, Sendable {
    /// The upload's id.
    public var uploadID: String
    /// The size of every part but the last, in bytes.
    public var partSize: Int64
    /// How many parts the file has.
    public var partsCount: Int

    enum CodingKeys: String, CodingKey {
        case uploadID = "upload_id"
        case partSize = "part_size"
        case partsCount = "parts_count"
    }

    /// Whether the numbers describe a file of `size` bytes: a positive part
    /// size and exactly the parts that cover the file (at least one, so an
    /// empty file has one empty part). Anything else cannot be uploaded as told.
    /// - Parameter size: the file's size.
    /// - Returns: true when the answer can be used.
    public func fits(size: Int64) -> Bool {
        UploadParts.count(size: size, partSize: partSize) == partsCount
    }
}

/// How a file is cut into parts: every part `partSize` bytes but the last,
/// at least one part (an empty file has one empty part).
public enum UploadParts {
    /// The number of parts of a file, or nil when the numbers cannot
    /// describe one (a size below zero, a part size of zero or less, more
    /// parts than an `Int` holds).
    /// - Parameters:
    ///   - size: the file's size in bytes.
    ///   - partSize: the part size in bytes.
    /// - Returns: the count.
    public static func count(size: Int64, partSize: Int64) -> Int? {
        guard size >= 0, partSize > 0 else { return nil }
        let count = size == 0 ? 1 : (size - 1) / partSize + 1
        return Int(exactly: count)
    }
}

/// The answer of getUpload: where an upload stands. The wire contract's
/// type, whose decoder requires only `upload_state` and `received_parts`,
/// the members the uploader reads.
public typealias UploadStatusAnswer = UploadStatus

/// The answer of completeUpload: the wire contract's type, whose decoder
/// reads only `sha256` (absent or null is nil).
public typealias CompletedUploadAnswer = UploadCompleted
