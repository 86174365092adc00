/// Why the shared MIME database could not be loaded.
public enum MIMEDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No searched directory holds an XML file of the database.
    case notFound(searched: [String])
    /// XML files were found but none of them could be parsed.
    case unreadable(paths: [String])

    /// The message for a person, with what to install.
    public var description: String {
        switch self {
        case .notFound(let searched):
            return "the shared MIME database was not found (searched \(searched.joined(separator: ", "))); "
                + "install shared-mime-info or set XDG_DATA_DIRS"
        case .unreadable(let paths):
            return "the shared MIME database could not be parsed (\(paths.joined(separator: ", ")))"
        }
    }
}
