/// The instance limits an upload is checked against before any byte is sent
/// (from the server's settings).
public struct UploadLimits: Hashable, Sendable {
    /// `file_max_upload_bytes`: the largest file the server accepts.
    public var fileMaxUploadBytes: Int64
    /// `upload_part_size`, when the server announced it: the part digests
    /// are then made in the same pass as everything else.
    public var partSize: Int64?
    /// `upload_digest_algorithms` as the server announced them (empty when
    /// it did not: only the plain `sha256`). With `sha256-composite` and a
    /// known part size the file is hashed once, part by part.
    public var digestAlgorithms: [String]

    /// Makes limits without a part size or digest forms.
    /// - Parameter fileMaxUploadBytes: `file_max_upload_bytes`.
    public init(fileMaxUploadBytes: Int64) {
        self.init(fileMaxUploadBytes: fileMaxUploadBytes, partSize: nil, digestAlgorithms: [])
    }

    /// Makes limits.
    /// - Parameters:
    ///   - fileMaxUploadBytes: `file_max_upload_bytes`.
    ///   - partSize: `upload_part_size`, if announced.
    ///   - digestAlgorithms: `upload_digest_algorithms`, if announced.
    public init(fileMaxUploadBytes: Int64, partSize: Int64?, digestAlgorithms: [String]) {
        self.fileMaxUploadBytes = fileMaxUploadBytes
        self.partSize = partSize
        self.digestAlgorithms = digestAlgorithms
    }
}

/// How long one upload may take before it stops and is handed to the daemon
/// (`upload.budget`).
public enum UploadBudget {
    /// The assumed slow link: about 1 Mbit/s.
    public static let assumedBytesPerSecond: Int64 = 125_000
    /// The cap: five minutes.
    public static let maximum: Duration = .seconds(300)
    /// The floor, so that a tiny file still gets time for its handful of requests.
    public static let minimum: Duration = .seconds(15)

    /// The default budget for a file: its size at about 1 Mbit/s, at least
    /// ``minimum``, at most ``maximum``.
    /// - Parameter size: the file's size in bytes.
    /// - Returns: the budget.
    public static func defaultBudget(forSize size: Int64) -> Duration {
        let seconds = max(0, size) / assumedBytesPerSecond + 1
        let budget = Duration.seconds(seconds)
        return min(maximum, max(minimum, budget))
    }
}
