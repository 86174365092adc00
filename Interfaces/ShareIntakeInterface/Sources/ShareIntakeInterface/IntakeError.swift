public import ShareKitCore

/// Why intake refused or could not load an item. Every case names the item,
/// so the person sees which of several files is the problem; nothing has
/// been sent to the server when intake fails.
public enum IntakeError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedDescription {
    /// The path does not exist.
    case notFound(item: String)
    /// The item cannot be read (permissions, a directory, a device, an I/O error).
    case unreadable(item: String, reason: String)
    /// Loading took longer than the deadline (a slow FIFO, a stalled pipe).
    case deadlineExceeded(item: String, seconds: Double)
    /// The content type is not one the server accepts, nor does it conform to one.
    case unsupportedType(item: String, contentType: String, accepted: [String])
    /// A photo whose type the server does not accept, which could not be
    /// converted into the JPEG it does accept (damaged, too many pixels,
    /// animated): `reason` says why.
    case notConvertible(item: String, contentType: String, reason: String)
    /// A photo sent as it is (a JPEG or PNG) whose location and identifying
    /// metadata cannot be removed, because its metadata cannot be told from
    /// its image (a damaged file): `reason` says why. `share send
    /// --keep-metadata` sends it as it is.
    case metadataNotRemovable(item: String, reason: String)
    /// The file is larger than `file_max_upload_bytes`.
    case tooLarge(item: String, size: Int64, limit: Int64)
    /// The copy in the container does not have the source's size.
    case copyMismatch(item: String, expected: Int64, actual: Int64)
    /// The container's file system is full (or over quota).
    case noSpace(item: String)
    /// The argument is neither an existing path nor a usable URL.
    case invalidItem(item: String, reason: String)
    /// The file is in a place where keys, passwords or tokens live
    /// (``ProtectedPlaces``): a share never reads it, whatever led to it.
    case protectedFile(item: String, place: String)
    /// Nothing to share: no file, link or text, and no comment.
    case empty
    /// The shared MIME database (which tells content types from file
    /// names) was not found: no searched directory holds an XML file of it.
    /// Intake turns it into ``unreadable(item:reason:)`` naming the item
    /// that needed the database.
    case mimeDatabaseNotFound(searched: [String])
    /// XML files of the shared MIME database were found but none of them
    /// could be parsed.
    case mimeDatabaseUnreadable(paths: [String])

    /// The message for a person, in English: logs, manifests and `--json`
    /// keep it; a terminal shows ``localizedText``.
    public var description: String { localizedText.english }

    /// The message for a person in every language (the table ``IntakeText``).
    public var localizedText: LocalizedText {
        let table = IntakeText.table
        switch self {
        case .notFound(let item): return table.localized(.notFound, ["item": item])
        case .unreadable(let item, let reason):
            return table.localized(.unreadable, ["item": item, "reason": reason])
        case .deadlineExceeded(let item, let seconds):
            return table.localized(.deadlineExceeded, ["item": item, "seconds": Self.format(seconds)])
        case .unsupportedType(let item, let type, let accepted):
            return LocalizedText { language in
                let list = accepted.isEmpty ? table.text(.acceptsNone, in: language) : accepted.joined(separator: ", ")
                return table.text(.unsupportedType, ["item": item, "type": type, "accepted": list], in: language)
            }
        case .notConvertible(let item, let type, let reason):
            return table.localized(.notConvertible, ["item": item, "type": type, "reason": reason])
        case .metadataNotRemovable(let item, let reason):
            return table.localized(.metadataNotRemovable, ["item": item, "reason": reason])
        case .tooLarge(let item, let size, let limit):
            return table.localized(
                .tooLarge,
                [
                    "item": item, "human": ByteCount.human(size), "size": size, "limit_human": ByteCount.human(limit),
                    "limit": limit,
                ])
        case .copyMismatch(let item, let expected, let actual):
            return table.localized(.copyMismatch, ["item": item, "expected": expected, "actual": actual])
        case .noSpace(let item): return table.localized(.noSpace, ["item": item])
        case .invalidItem(let item, let reason):
            return table.localized(.invalidItem, ["item": item, "reason": reason])
        case .protectedFile(let item, let place):
            return table.localized(.protectedFile, ["item": item, "place": place])
        case .empty: return table.localized(.empty)
        // The package and variable to name are the same in every language:
        // these stay in English.
        case .mimeDatabaseNotFound(let searched):
            return LocalizedText(
                verbatim: "the shared MIME database was not found (searched \(searched.joined(separator: ", "))); "
                    + "install shared-mime-info or set XDG_DATA_DIRS")
        case .mimeDatabaseUnreadable(let paths):
            return LocalizedText(
                verbatim: "the shared MIME database could not be parsed (\(paths.joined(separator: ", ")))")
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
