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

    /// The message for a person.
    public var description: String {
        switch self {
        case .io(let path, let reason): return "share inbox: \(path): \(reason)"
        case .noSpace(let path): return "share inbox: no space left on the device (\(path))"
        case .invalidID(let id): return "share inbox: '\(id)' is not a valid entry id"
        case .exists(let id): return "share inbox: entry \(id) already exists"
        case .quarantined(let id, let reason): return "share inbox: entry \(id) was quarantined: \(reason)"
        }
    }
}
