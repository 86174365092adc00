import Foundation
import ShareKitHTTPInterface
public import ShareKitImageConversionInterface
public import ShareKitServerAPIInterface
public import ShareKitUploadsInterface

/// Photos a room's members could not see: Element and the other common
/// clients show JPEG, PNG, GIF and WebP (and AVIF, where the browser does)
/// inline, but HEIF/HEIC and TIFF only as a file to download. A homeserver
/// takes any type, so it advertises no list for intake to convert against as
/// a ShareKit server does (`accepted_content_types`); the uploader converts
/// these types into a JPEG itself, with the converter intake uses, just
/// before the upload, and the event describes the JPEG (`image/jpeg`, its
/// size, width and height, the name `<stem>.jpg`).
///
/// The location and identifying metadata are dropped, as intake drops them
/// by default. The JPEG lives in a private temporary folder (0700) only
/// while it is uploaded.
public struct MatrixPhotoConversion: Sendable {
    /// The content types converted: those a Matrix client does not display.
    public static let convertedTypes: Set<String> = ["image/heif", "image/heic", "image/tiff"]

    private let converter: any ImageConverting

    /// - Parameter converter: the JPEG converter (the composition root's).
    public init(converter: any ImageConverting) {
        self.converter = converter
    }

    /// Whether a file of this type is converted before the upload.
    /// - Parameter contentType: the file's type.
    /// - Returns: true when the type is not displayed and the converter reads it.
    public func converts(_ contentType: String) -> Bool {
        let type = contentType.lowercased()
        guard Self.convertedTypes.contains(type) else { return false }
        // The converter names HEIC by its container type.
        return converter.readableContentTypes.contains(type == "image/heic" ? "image/heif" : type)
    }

    /// Converts the photo into a JPEG in a new private folder and hands the
    /// JPEG to `body`; the folder is removed afterwards, whatever happens.
    /// - Parameters:
    ///   - source: the photo.
    ///   - budget: the time the conversion may take (the share's remaining budget).
    ///   - body: uploads the JPEG.
    /// - Returns: what `body` returns.
    /// - Throws: ``ShareKitServerAPIInterface/APIError``: a photo that cannot be
    ///   converted is refused (`unsupported_type`), as intake refuses it for
    ///   a ShareKit server.
    public func withJPEG<T>(
        of source: UploadSource, budget: Duration?,
        _ body: (UploadSource) async throws(APIError) -> T
    ) async throws(APIError) -> T {
        var template = Array((NSTemporaryDirectory() + "/sharekit-matrix-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .failed(.fileChanged(path: source.path, reason: "no temporary folder for the JPEG: errno \(errno)"))
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let jpeg = try await convert(source, into: folder + "/photo.jpg", budget: budget)
        return try await body(jpeg)
    }

    /// The JPEG's name: the original's stem with `.jpg`.
    static func jpegName(for fileName: String) -> String {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        return stem + ".jpg"
    }

    private func convert(_ source: UploadSource, into path: String, budget: Duration?) async throws(APIError)
        -> UploadSource
    {
        let deadline = budget.map { ContinuousClock.now + $0 }
        let converter = self.converter
        // Blocking decoding and encoding, off the cooperative pool.
        let outcome: Result<JPEGConversion, ImageConversionError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Self.convert(source.path, into: path, deadline: deadline, converter))
            }
        }
        switch outcome {
        case .success(let conversion):
            var attributes = stat()
            guard stat(path, &attributes) == 0 else {
                throw .failed(.fileChanged(path: path, reason: "the JPEG is gone: errno \(errno)"))
            }
            let identity = UploadFileIdentity(
                path: path, size: conversion.size,
                modificationTimeNanoseconds: Int64(attributes.st_mtim.tv_sec) * 1_000_000_000
                    + Int64(attributes.st_mtim.tv_nsec))
            return UploadSource(
                identity: identity, fileName: Self.jpegName(for: source.fileName), contentType: "image/jpeg")
        case .failure(.stopped(.cancelled)):
            throw .cancelled
        case .failure(let error):
            throw .refused(
                APIRefusal(
                    operation: "upload", status: 415, code: "unsupported_type",
                    message: "\(source.fileName): cannot be converted to JPEG: \(error)"))
        }
    }

    private static func convert(
        _ source: String, into destination: String, deadline: ContinuousClock.Instant?, _ converter: any ImageConverting
    ) -> Result<JPEGConversion, ImageConversionError> {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return .failure(.unreadable("errno \(errno)")) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard output >= 0 else { return .failure(.unwritable("errno \(errno)")) }
        defer { close(output) }
        let options = JPEGConversionOptions(keepMetadata: false) {
            guard let deadline else { return nil }
            return ContinuousClock.now >= deadline ? .deadlineExceeded : nil
        }
        do throws(ImageConversionError) {
            return .success(try converter.convertToJPEG(source: input, destination: output, options: options))
        } catch {
            return .failure(error)
        }
    }
}
