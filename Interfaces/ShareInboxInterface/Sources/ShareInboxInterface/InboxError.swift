/// Why the inbox could not do something. The inbox never crashes on what it
/// finds on disk; these errors are about the operation asked for.
public enum InboxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The inbox or an entry could not be written or read (with the path and errno text).
    case io(path: String, reason: String)
    /// The file system is full.
    case noSpace(path: String)
    /// An id that cannot name an entry (it would escape the inbox).
    case invalidID(String)
    /// An entry with this id already exists.
    case exists(String)
    /// The entry was unusable and has been quarantined.
    case quarantined(id: String, reason: String)
    /// What is wrong with an entry as found on disk, in words for a person:
    /// the reason it is quarantined with. An operation never ends with it:
    /// the inbox quarantines the entry and says ``quarantined(id:reason:)``.
    case unusable(reason: String)
    /// A manifest's bytes are not a JSON object.
    case manifestNotJSON
    /// A manifest was written by a newer ShareKit with this format version.
    case manifestNewerFormat(Int)
    /// A manifest's format version never existed (zero or negative).
    case manifestUnknownFormat(Int)
    /// A required field of a manifest is absent (or null); the dotted path names it.
    case manifestMissingField(String)
    /// A field of a manifest has the wrong JSON type; the dotted path names it.
    case manifestWrongType(String)
    /// A manifest holds a value JSON cannot represent.
    case manifestNotEncodable(String)
    /// A field of a manifest is outside its range (a count, a size, a time,
    /// a length); the text names the field and the range.
    case manifestOutOfRange(String)

    /// The message for a person. A manifest's problems name fields and
    /// formats, never the values (a comment is the person's text): they
    /// complete "manifest.json is not valid: ", the quarantine reason.
    public var description: String {
        switch self {
        case .io(let path, let reason): return "share inbox: \(path): \(reason)"
        case .noSpace(let path): return "share inbox: no space left on the device (\(path))"
        case .invalidID(let id): return "share inbox: '\(id)' is not a valid entry id"
        case .exists(let id): return "share inbox: entry \(id) already exists"
        case .quarantined(let id, let reason): return "share inbox: entry \(id) was quarantined: \(reason)"
        case .unusable(let reason): return reason
        case .manifestNotJSON: return "it is not a JSON object"
        case .manifestNewerFormat(let version): return "it was written by a newer ShareKit (format \(version))"
        case .manifestUnknownFormat(let version): return "its format version \(version) is unknown"
        case .manifestMissingField(let field): return "the field '\(field)' is missing"
        case .manifestWrongType(let field): return "the field '\(field)' has the wrong type"
        case .manifestNotEncodable(let reason): return "it cannot be encoded: \(reason)"
        case .manifestOutOfRange(let problem): return problem
        }
    }
}
