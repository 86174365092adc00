/// How far an upload has got.
///
/// ``acknowledgedBytes`` counts only parts the server has answered `200`
/// for (a resumed upload starts with the parts it already had): it never
/// decreases and ends at ``totalBytes``. ``inFlightBytes`` are the bytes of
/// the parts being sent (an uploader may send several at once) that have
/// been written to their connections, for a smooth bar; they are not
/// acknowledged, a part's fall back to 0 when it is sent again, and the two
/// together never exceed ``totalBytes``.
public struct UploadProgress: Hashable, Sendable, CustomStringConvertible {
    /// Bytes of parts the server acknowledged.
    public var acknowledgedBytes: Int64
    /// Bytes of the parts in flight written so far (not acknowledged).
    public var inFlightBytes: Int64
    /// The file's size.
    public var totalBytes: Int64

    /// Makes a progress report.
    /// - Parameters:
    ///   - acknowledgedBytes: bytes the server acknowledged.
    ///   - inFlightBytes: bytes of the parts in flight written, not yet acknowledged.
    ///   - totalBytes: the file's size.
    public init(acknowledgedBytes: Int64, inFlightBytes: Int64 = 0, totalBytes: Int64) {
        self.acknowledgedBytes = acknowledgedBytes
        self.inFlightBytes = inFlightBytes
        self.totalBytes = totalBytes
    }

    /// `acknowledged/total (+in flight)`.
    public var description: String { "\(acknowledgedBytes)/\(totalBytes) acknowledged (+\(inFlightBytes) in flight)" }
}

/// An upload the server completed.
public struct CompletedUpload: Hashable, Sendable {
    /// The server's upload id, to attach to a message.
    public var uploadID: String
    /// The file's SHA-256 as the server confirmed it, 64 lowercase hex digits.
    public var sha256: String

    /// Makes a result.
    /// - Parameters:
    ///   - uploadID: the upload id.
    ///   - sha256: the SHA-256 in hex.
    public init(uploadID: String, sha256: String) {
        self.uploadID = uploadID
        self.sha256 = sha256
    }
}
