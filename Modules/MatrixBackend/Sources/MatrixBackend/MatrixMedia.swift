import Foundation
import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitHTTPInterface
public import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
public import ShareKitUploadsInterface

/// Uploads a file to the homeserver's media repository
/// (`POST /_matrix/media/v3/upload`), streamed from disk, and hands back
/// an upload id that carries what the room event needs later (the `mxc://`
/// URI, name, type, size, SHA-256, an image's width and height): the id is
/// what the keeper stores, so the daemon that takes a share over sends the
/// same event content without the file being uploaded again.
public struct MatrixMediaUploader: FileUploading {
    private let homeserver: MatrixHomeserver
    private let tokens: any AccessTokenProvider
    private let crypto: any CryptoProvider
    private let photos: MatrixPhotoConversion?

    /// - Parameters:
    ///   - homeserver: the homeserver.
    ///   - tokens: the session that uploads.
    ///   - crypto: hashes the file (the attachment's SHA-256 in the outcome).
    ///   - photos: converts photos room members could not see into JPEG;
    ///     nil uploads every file as it is.
    public init(
        homeserver: MatrixHomeserver, tokens: any AccessTokenProvider, crypto: any CryptoProvider,
        photos: MatrixPhotoConversion? = nil
    ) {
        self.homeserver = homeserver
        self.tokens = tokens
        self.crypto = crypto
        self.photos = photos
    }

    /// Uploads one file (a HEIC or TIFF photo as a JPEG, see
    /// ``MatrixPhotoConversion``). Its size is checked against the
    /// homeserver's `m.upload.size` before any byte goes out.
    public func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload {
        guard let photos, photos.converts(source.contentType) else {
            return try await uploadFile(source, limits: limits, cancellation: cancellation)
        }
        return try await photos.withJPEG(of: source, budget: budget) { (jpeg) throws(APIError) in
            try await uploadFile(jpeg, limits: limits, cancellation: cancellation)
        }
    }

    /// Uploads one file as it is.
    private func uploadFile(_ source: UploadSource, limits: UploadLimits, cancellation: HTTPCancellation?)
        async throws(APIError) -> CompletedUpload
    {
        guard source.size <= limits.fileMaxUploadBytes else {
            throw .refused(
                APIRefusal(
                    operation: "upload", status: 413, code: "file_too_large",
                    message:
                        "the file is \(source.size) bytes; the homeserver takes at most \(limits.fileMaxUploadBytes)"))
        }
        let digest: [UInt8]
        let head: [UInt8]
        do {
            (digest, head) = try hash(source)
        } catch {
            throw .failed(.fileChanged(path: source.path, reason: "\(error)"))
        }
        let name = MatrixHomeserver.segment(source.fileName)
        let json = try await homeserver.authorized(
            .post, "/_matrix/media/v3/upload?filename=" + name,
            body: .file(HTTPFileRegion(path: source.path, offset: 0, length: UInt64(source.size))),
            contentType: source.contentType, tokens: tokens, cancellation: cancellation, operation: "upload")
        guard let uri = json["content_uri"]?.stringValue, uri.hasPrefix("mxc://"), uri.count < 512 else {
            throw .retryable(
                APIRetry(kind: .unreadableAnswer(status: 200), message: "upload: the homeserver named no content URI"))
        }
        let size = ImageSize.of(head)
        let media = MatrixMedia(
            uri: uri, fileName: source.fileName, contentType: source.contentType, size: source.size,
            sha256: Hex.encode(digest), width: size?.width, height: size?.height)
        return CompletedUpload(uploadID: media.uploadID, sha256: media.sha256)
    }

    /// The file's SHA-256 and its first bytes (an image's size is in them).
    private func hash(_ source: UploadSource) throws -> ([UInt8], [UInt8]) {
        guard let handle = FileHandle(forReadingAtPath: source.path) else {
            throw MatrixFileError("cannot open the file")
        }
        defer { try? handle.close() }
        var hasher = try crypto.makeSHA256Hasher()
        var head: [UInt8] = []
        var total: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            if head.count < 65_536 { head += chunk.prefix(65_536 - head.count) }
            total += Int64(chunk.count)
            hasher.update(contentsOf: chunk)
        }
        guard total == source.size else { throw MatrixFileError("the file changed size since it was shared") }
        return (try hasher.finalize(), head)
    }
}

/// A file could not be read as it was shared.
struct MatrixFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An uploaded file as a room event describes it, kept in the upload id:
/// `mxc://server/id#` and the fields percent-encoded as a query.
struct MatrixMedia: Hashable, Sendable {
    var uri: String
    var fileName: String
    var contentType: String
    var size: Int64
    var sha256: String
    var width: Int?
    var height: Int?

    /// The id the keeper stores.
    var uploadID: String {
        var fields = [
            "n=" + MatrixHomeserver.segment(fileName), "t=" + MatrixHomeserver.segment(contentType), "s=\(size)",
            "h=" + sha256,
        ]
        if let width, let height { fields += ["w=\(width)", "v=\(height)"] }
        return uri + "#" + fields.joined(separator: "&")
    }

    /// Reads an upload id back; nil when it is not one of this backend's.
    init?(uploadID: String) {
        guard uploadID.hasPrefix("mxc://"), let hash = uploadID.firstIndex(of: "#") else { return nil }
        uri = String(uploadID[..<hash])
        var values: [String: String] = [:]
        for pair in uploadID[uploadID.index(after: hash)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[String(parts[0])] = String(parts[1]).removingPercentEncoding
        }
        guard let name = values["n"], let type = values["t"], let sizeText = values["s"], let size = Int64(sizeText),
            size >= 0
        else { return nil }
        fileName = name
        contentType = type
        self.size = size
        sha256 = values["h"] ?? ""
        width = values["w"].flatMap { Int($0) }.flatMap { (1...100_000).contains($0) ? $0 : nil }
        height = values["v"].flatMap { Int($0) }.flatMap { (1...100_000).contains($0) ? $0 : nil }
    }

    init(
        uri: String, fileName: String, contentType: String, size: Int64, sha256: String, width: Int?, height: Int?
    ) {
        self.uri = uri
        self.fileName = fileName
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.width = width
        self.height = height
    }

    /// `m.image`, `m.video`, `m.audio` or `m.file`, by the content type.
    var messageType: String {
        if contentType.hasPrefix("image/") { return "m.image" }
        if contentType.hasPrefix("video/") { return "m.video" }
        if contentType.hasPrefix("audio/") { return "m.audio" }
        return "m.file"
    }

    /// The event content (without the share's marker).
    var content: [String: JSONValue] {
        var info: [String: JSONValue] = ["mimetype": .string(contentType), "size": .integer(size)]
        if let width, let height {
            info["w"] = .integer(Int64(width))
            info["h"] = .integer(Int64(height))
        }
        return [
            "msgtype": .string(messageType), "body": .string(fileName), "filename": .string(fileName),
            "url": .string(uri), "info": .object(info),
        ]
    }
}

/// The width and height of a PNG or JPEG from its first bytes.
enum ImageSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            return valid(width, height)
        }
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return valid(width, height)
            }
            guard length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }

    private static func valid(_ width: Int, _ height: Int) -> (width: Int, height: Int)? {
        (1...100_000).contains(width) && (1...100_000).contains(height) ? (width, height) : nil
    }
}
