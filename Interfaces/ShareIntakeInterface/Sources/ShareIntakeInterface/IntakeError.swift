import ShareCore

/// Why intake refused or could not load an item. Every case names the item,
/// so the person sees which of several files is the problem; nothing has
/// been sent to the server when intake fails.
public enum IntakeError: Error, Hashable, Sendable, CustomStringConvertible {
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
    /// The file is larger than `file_max_upload_bytes`.
    case tooLarge(item: String, size: Int64, limit: Int64)
    /// The copy in the container does not have the source's size.
    case copyMismatch(item: String, expected: Int64, actual: Int64)
    /// The container's file system is full (or over quota).
    case noSpace(item: String)
    /// The argument is neither an existing path nor a usable URL.
    case invalidItem(item: String, reason: String)
    /// Nothing to share: no file, link or text, and no comment.
    case empty

    /// The message for a person.
    public var description: String {
        switch self {
        case .notFound(let item): return "\(item): no such file"
        case .unreadable(let item, let reason): return "\(item): cannot be read: \(reason)"
        case .deadlineExceeded(let item, let seconds):
            return "\(item): loading did not finish within \(Self.format(seconds)) seconds"
        case .unsupportedType(let item, let type, let accepted):
            let list = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
            return "\(item): the server does not accept \(type) (it accepts \(list))"
        case .notConvertible(let item, let type, let reason):
            return "\(item): the server does not accept \(type), and it cannot be converted to JPEG: \(reason)"
        case .tooLarge(let item, let size, let limit):
            return
                "\(item): \(ByteCount.human(size)) (\(size) bytes) is over the server's limit of "
                + "\(ByteCount.human(limit)) (\(limit) bytes, file_max_upload_bytes)"
        case .copyMismatch(let item, let expected, let actual):
            return "\(item): the copy has \(actual) bytes, the file had \(expected) (did it change while being read?)"
        case .noSpace(let item): return "\(item): no space left to keep a copy in the share inbox"
        case .invalidItem(let item, let reason): return "\(item): \(reason)"
        case .empty: return "nothing to share: give a file, a link, --text or --stdin"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
