public import ShareKitIntakeInterface

/// What a catalog can tell beyond ``ContentTypeCatalog``: the ordered list
/// of supertypes (for the nearest accepted supertype and "is it an image")
/// and a file extension for a type. ``FileShareIntake`` uses it when its
/// catalog offers it and falls back to plain conformance checks otherwise.
public protocol ContentTypeHierarchy: ContentTypeCatalog {
    /// The type and every type it conforms to, nearest first.
    func supertypes(of contentType: String) -> [String]
    /// A file extension for the type, without the dot; nil when none is known.
    func preferredExtension(for contentType: String) -> String?
}
