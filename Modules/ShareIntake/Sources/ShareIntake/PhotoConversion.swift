import ShareKitImageConversionInterface
import ShareKitIntakeInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Photos the server takes only as JPEG: when a file's type is refused but
/// the server accepts `image/jpeg` and the converter reads the type, the
/// file is converted into a new JPEG in the destination folder, named
/// `<stem>.jpg`, within the item's deadline. The original is only read.
extension ItemLoader {
    static let jpeg = "image/jpeg"

    /// The spelling of `image/jpeg` the server accepts, when an attachment
    /// of type `detected` should be converted; nil when it should not (no
    /// converter, a type it does not read, no list of types, no JPEG in it).
    func jpegType(for detected: String) -> String? {
        guard let converter, let accepted = policy.acceptedContentTypes,
            converter.readableContentTypes.contains(rules.catalog.canonical(detected)),
            let spelled = try? rules.uploadType(for: Self.jpeg, accepted: accepted, item: ""),
            rules.catalog.canonical(spelled) == Self.jpeg
        else { return nil }
        return spelled
    }

    /// The name the server is told for the JPEG: the original's stem with `.jpg`.
    static func jpegName(for fileName: String) -> String {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        return stem + ".jpg"
    }

    /// Converts the photo open as `source` into a new JPEG in the folder.
    /// - Parameters:
    ///   - source: the photo (the original, or intake's copy of a stream).
    ///   - fileName: the original's name.
    ///   - detected: its type.
    ///   - jpegType: what the server calls JPEG.
    /// - Returns: the JPEG as an item.
    /// - Throws: ``IntakeError``; the JPEG is removed then.
    func convert(
        _ source: Int32, fileName: String, detected: String, jpegType: String, context: LoadContext
    ) throws(IntakeError) -> IntakeItem {
        guard let converter else { throw .unsupportedType(item: context.item, contentType: detected, accepted: []) }
        let name = Self.jpegName(for: fileName)
        let (copy, storedName) = try createCopy(index: context.index, fileName: name, context: context)
        let options = JPEGConversionOptions(keepMetadata: policy.keepImageMetadata) {
            if context.cancellation.isSet { return .cancelled }
            return ContinuousClock.now >= context.deadline ? .deadlineExceeded : nil
        }
        do throws(IntakeError) {
            let result: JPEGConversion
            do {
                result = try converter.convertToJPEG(source: source, destination: copy.fd, options: options)
            } catch {
                throw Self.intakeError(error, detected: detected, context: context)
            }
            try context.checkSize(result.size)
            let copier = FileCopier(source: source, destination: copy.fd, context: context)
            try copier.finish(copied: result.size)
            context.report(copied: result.size, total: nil)
            return IntakeItem(
                kind: .image, origin: context.item, storedName: storedName, fileName: name, contentType: jpegType,
                detectedContentType: detected, size: result.size,
                conversion: IntakeConversion(
                    originalContentType: detected, width: result.width, height: result.height,
                    removedLocation: result.removedLocation))
        } catch {
            remove(storedName)
            throw error
        }
    }

    /// Whether an attachment of type `detected`, sent as it is, is copied
    /// without its location and identifying metadata: a JPEG or PNG (what
    /// the converter rewrites), unless the person keeps metadata.
    func removesMetadata(from detected: String) -> Bool {
        guard let converter, !policy.keepImageMetadata else { return false }
        return converter.metadataRewritableContentTypes.contains(rules.catalog.canonical(detected))
    }

    /// Copies the photo open as `source` into a new file in the folder
    /// without its location and identifying metadata, not re-encoded (one
    /// rule for every photo: a converted one loses the same).
    /// - Parameters:
    ///   - source: the photo (the original, or intake's copy of a stream).
    ///   - fileName: the name of the copy (the original's).
    /// - Returns: the copy's stored name and size.
    /// - Throws: ``IntakeError``; the copy is removed then. A photo whose
    ///   metadata cannot be told from its image is refused
    ///   (``IntakeError/metadataNotRemovable(item:reason:)``): sent as it is,
    ///   it could carry the location the person did not mean to share.
    func copyWithoutMetadata(_ source: Int32, fileName: String, context: LoadContext) throws(IntakeError) -> (
        storedName: String, size: Int64
    ) {
        guard let converter else { throw .unreadable(item: context.item, reason: "no converter") }
        let (copy, storedName) = try createCopy(index: context.index, fileName: fileName, context: context)
        let options = JPEGConversionOptions {
            if context.cancellation.isSet { return .cancelled }
            return ContinuousClock.now >= context.deadline ? .deadlineExceeded : nil
        }
        do throws(IntakeError) {
            let result: MetadataRemoval
            do {
                result = try converter.removeMetadata(source: source, destination: copy.fd, options: options)
            } catch {
                switch error {
                case .malformed, .unsupported, .tooManyPixels, .encodedDataTooLarge:
                    throw .metadataNotRemovable(item: context.item, reason: error.description)
                default:
                    throw Self.intakeError(error, detected: "", context: context)
                }
            }
            try context.checkSize(result.size)
            let copier = FileCopier(source: source, destination: copy.fd, context: context)
            try copier.finish(copied: result.size)
            context.report(copied: result.size, total: result.size)
            return (storedName, result.size)
        } catch {
            remove(storedName)
            throw error
        }
    }

    /// Converts a copy already in the folder (the share's list of types was
    /// not known at intake); the copy stays.
    /// - Returns: the JPEG as an item, or nil when the item is not converted.
    /// - Throws: ``IntakeError`` when the conversion fails.
    func convertStored(_ item: IntakeItem, context: LoadContext) throws(IntakeError) -> IntakeItem? {
        guard let storedName = item.storedName, let fileName = item.fileName,
            let detected = item.detectedContentType ?? item.contentType
        else { return nil }
        // Only what the server refuses, as intake would have decided it.
        guard (try? rules.uploadType(for: detected, accepted: policy.acceptedContentTypes, item: "")) == nil,
            let jpegType = jpegType(for: detected)
        else { return nil }
        let fd = openat(directory, storedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .unreadable(item: context.item, reason: systemMessage(errno)) }
        let source = OwnedDescriptor(fd: fd)
        return try convert(source.fd, fileName: fileName, detected: detected, jpegType: jpegType, context: context)
    }

    /// A conversion's failure as intake reports it: the photo's own faults
    /// name the type the server refused; time, cancellation, space and I/O
    /// are reported as for any other load.
    static func intakeError(_ error: ImageConversionError, detected: String, context: LoadContext) -> IntakeError {
        switch error {
        case .stopped(.deadlineExceeded): return context.deadlineExceeded
        case .stopped(.cancelled): return .unreadable(item: context.item, reason: "cancelled")
        case .noSpace: return .noSpace(item: context.item)
        case .unreadable(let reason): return .unreadable(item: context.item, reason: reason)
        case .unwritable: return .unreadable(item: context.item, reason: error.description)
        case .unsupported, .malformed, .tooManyPixels, .encodedDataTooLarge:
            return .notConvertible(item: context.item, contentType: detected, reason: error.description)
        }
    }
}
