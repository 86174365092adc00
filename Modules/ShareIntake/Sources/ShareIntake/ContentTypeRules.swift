import ShareKitIntakeInterface

/// The three decisions about an attachment's type, as conformance
/// questions to the catalog (see the article "Deciding what an item is").
struct ContentTypeRules: Sendable {
    let catalog: any ContentTypeCatalog

    static let textPlain = "text/plain"
    static let pdf = "application/pdf"
    static let octetStream = "application/octet-stream"
    static let zeroSize = "application/x-zerosize"
    /// What libmagic says about a file without bytes.
    static let emptyMarkers: Set<String> = ["inode/x-empty", "application/x-empty"]

    /// The detected type: the bytes win, the name may only refine them.
    ///
    /// A name type replaces the bytes type when it conforms to it (bytes say
    /// `text/plain`, `script.py` says `text/x-python`; bytes say
    /// `application/zip`, the name an OpenDocument type). A type libmagic
    /// knows but the database does not (`text/x-script.python`) is compared
    /// as what it surely is (`text/plain` for `text/*`). Bytes libmagic
    /// cannot tell (`application/octet-stream`) stay unknown: a name alone
    /// never makes a type. An empty file is what its name says, else
    /// `application/x-zerosize`.
    func detectedType(bytesType: String, fileName: String?) -> String {
        let nameTypes = fileName.map { catalog.contentTypes(forFileName: $0) } ?? []
        if Self.emptyMarkers.contains(bytesType) { return nameTypes.first ?? Self.zeroSize }
        let bytes = catalog.canonical(bytesType)
        guard bytes != Self.octetStream else { return bytes }
        let reference = catalog.isKnown(bytes) || !bytes.hasPrefix("text/") ? bytes : Self.textPlain
        return nameTypes.first { $0 != bytes && catalog.conforms($0, to: reference) } ?? bytes
    }

    /// The kind, by ranking: an image if the type is or conforms to an
    /// `image/*` type, a PDF if it conforms to `application/pdf`, else a file.
    func kind(of contentType: String) -> ShareItemKind {
        if supertypes(of: contentType).contains(where: { $0.hasPrefix("image/") }) { return .image }
        return catalog.conforms(contentType, to: Self.pdf) ? .pdf : .file
    }

    /// The type to upload with: the detected type when the server takes it
    /// (or its list is unknown), else the nearest supertype it takes,
    /// spelled as the server spelled it.
    /// - Throws: ``IntakeError/unsupportedType(item:contentType:accepted:)``
    ///   naming the detected type when no supertype is accepted.
    func uploadType(for detected: String, accepted: [String]?, item: String) throws(IntakeError) -> String {
        guard let accepted else { return detected }
        let concrete = accepted.map(MIMEDatabase.bare).filter { !$0.isEmpty && !$0.contains("*") }
        let byCanonical = Dictionary(
            concrete.map { (catalog.canonical($0), $0) }, uniquingKeysWith: { first, _ in first })
        for candidate in supertypes(of: detected) {
            if let spelled = byCanonical[candidate] { return spelled }
        }
        if !(catalog is any ContentTypeHierarchy),
            let spelled = concrete.first(where: { catalog.conforms(detected, to: $0) })
        {
            return spelled
        }
        throw .unsupportedType(item: item, contentType: detected, accepted: accepted)
    }

    /// The type and its supertypes, nearest first, where the catalog can
    /// list them; otherwise only the canonical type itself.
    private func supertypes(of contentType: String) -> [String] {
        if let hierarchy = catalog as? any ContentTypeHierarchy { return hierarchy.supertypes(of: contentType) }
        return [catalog.canonical(contentType)]
    }

    /// A file extension for the type, for naming standard input.
    func preferredExtension(for contentType: String) -> String? {
        (catalog as? any ContentTypeHierarchy)?.preferredExtension(for: contentType)
    }
}
