/// What a shared item is. The cases are a ranking, not a check order: an
/// item is the first kind it can be (an SVG file is an image before it is
/// a file; a `file://` URL is a file, never a link).
public enum ShareItemKind: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// A file whose content type conforms to an image type.
    case image
    /// A file whose content type conforms to `application/pdf`.
    case pdf
    /// Any other file (a path, a `file://` URL, or binary standard input).
    case file
    /// A URL that is not a file (`https://...`): it goes into the message text.
    case link
    /// Text (`--text`, or standard input that is text): it goes into the message text.
    case text

    /// The ranking: `image < pdf < file < link < text`.
    public static func < (lhs: ShareItemKind, rhs: ShareItemKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Whether items of this kind are uploaded as attachments.
    public var isAttachment: Bool { self == .image || self == .pdf || self == .file }
}

/// One thing the person asked to share, as named on the command line,
/// before anything is read. ``ShareIntaking/source(forArgument:)`` decides
/// between a path and a link; `--text` and `--stdin` name themselves.
public enum ShareItemSource: Hashable, Sendable, CustomStringConvertible {
    /// A local file: a path, or the path of a `file://` URL (already decoded).
    case file(path: String)
    /// A URL that is not a file.
    case link(String)
    /// Text given on the command line.
    case text(String)
    /// Standard input (a pipe, a FIFO, a file): text or a file, told from its bytes.
    case standardInput

    /// How messages name the item.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .link(let url): return url
        case .text: return "the text"
        case .standardInput: return "standard input"
        }
    }
}
