/// The shared MIME database as a conformance relation: the Linux
/// counterpart of UTType conformance (`text/x-python` conforms to
/// `text/plain`, so "is it text" is a conformance question, not a string
/// prefix). Types are
/// lowercase media types without parameters.
public protocol ContentTypeCatalog: Sendable {
    /// The canonical name of a type (aliases resolved, lowercase).
    func canonical(_ contentType: String) -> String
    /// Whether `contentType` is `other` or a subclass of it, transitively
    /// (`text/x-python` conforms to `text/plain`; `image/svg+xml` to
    /// `application/xml`; every type to `application/octet-stream`).
    func conforms(_ contentType: String, to other: String) -> Bool
    /// The types a file name suggests (globs), best match first; empty when none.
    func contentTypes(forFileName fileName: String) -> [String]
    /// Whether the type is known to the database.
    func isKnown(_ contentType: String) -> Bool
}

/// Tells a content type from bytes (libmagic on Linux).
public protocol ContentSniffing: Sendable {
    /// The content type of a file's bytes, e.g. `image/png`.
    /// - Throws: ``IntakeError/unreadable(item:reason:)`` when it cannot be read.
    func contentType(ofFileAt path: String) throws(IntakeError) -> String
}

/// Share intake: decides what each item is and loads it, every load within
/// its deadline, files copied (streamed, never decoded, never read whole)
/// into a destination folder and verified by size. The one exception is a
/// photo in a type the server does not accept while it accepts JPEG (HEIC,
/// WebP, TIFF): that one is converted into a JPEG in the destination folder
/// instead, within the same deadline, the original left as it was.
public protocol ShareIntaking: Sendable {
    /// What a command-line argument names: a path and a `file://` URL are
    /// files; only a URL that is not a file is a link.
    /// - Throws: ``IntakeError/invalidItem(item:reason:)`` for a `file://` URL
    ///   that is not local or cannot be decoded.
    func source(forArgument argument: String) throws(IntakeError) -> ShareItemSource

    /// Loads the items in order, copying attachments into `directory`.
    /// Checks size and type before copying where it can (regular files) and
    /// again on the copy. A file (or standard input) in one of the
    /// implementation's ``ProtectedPlaces`` is refused before a byte of it is
    /// read. On failure, copies already made stay in `directory`; the
    /// caller discards it.
    /// - Parameters:
    ///   - sources: the items.
    ///   - directory: an existing folder that receives the copies.
    ///   - policy: the server's limits and the deadlines.
    ///   - progress: copy progress (called often for big files).
    /// - Returns: one item per source, in order.
    /// - Throws: ``IntakeError`` naming the first item that failed.
    func load(
        _ sources: [ShareItemSource], into directory: String, policy: IntakePolicy,
        progress: (@Sendable (IntakeProgress) -> Void)?
    ) async throws(IntakeError) -> [IntakeItem]

    /// Converts an attachment that intake already copied into `directory`
    /// into a JPEG beside it, when the server's list of types, known only
    /// after intake, does not take the attachment's type but takes JPEG.
    /// The copy is left where it is: remove it once nothing names it.
    /// - Parameters:
    ///   - item: the attachment as intake loaded it (its stored name, file
    ///     name and detected type).
    ///   - index: its position among the share's items (for the new name).
    ///   - directory: the folder that holds the copy and receives the JPEG.
    ///   - policy: the server's types and limits, the deadline, the metadata policy.
    /// - Returns: the JPEG as an item (`<stem>.jpg`, `image/jpeg`), or nil
    ///   when the attachment's type is accepted, is not a photo type that is
    ///   converted, or the server does not take JPEG either.
    /// - Throws: ``IntakeError`` when the conversion fails; no JPEG is left then.
    func convertToJPEG(_ item: IntakeItem, index: Int, in directory: String, policy: IntakePolicy)
        async throws(IntakeError) -> IntakeItem?
}
