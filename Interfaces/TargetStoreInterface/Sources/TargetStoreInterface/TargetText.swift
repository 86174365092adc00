public import ShareKitCore

/// The texts of ``TargetError``, English and German (see `StringTable` for
/// how to add one). `{candidates}` is a list of display paths, one a line.
public enum TargetText: String, StringTableKey {
    case notFound = "target.not_found"
    case notFoundSuggestions = "target.not_found_suggestions"
    case ambiguous = "target.ambiguous"
    case notWritable = "target.not_writable"
    case invalidReference = "target.invalid_reference"
    case unavailableRetryable = "target.unavailable_retryable"
    case unavailable = "target.unavailable"

    /// The table.
    public static let table = StringTable<TargetText>(
        english: [
            .notFound: "No target you can see is called '{text}'.",
            .notFoundSuggestions: "No target you can see is called '{text}'. Did you mean:{candidates}",
            .ambiguous: "'{text}' matches several targets; name one of them:{candidates}",
            .notWritable: "You cannot write in '{path}'. Only targets with write permission can be chosen.",
            .invalidReference: "'{text}' is not a usable target: {reason}.",
            .unavailableRetryable: "Targets are not available right now ({reason}); try again later.",
            .unavailable: "Targets are not available: {reason}.",
        ],
        german: [
            .notFound: "Kein Ziel, das du sehen kannst, heißt '{text}'.",
            .notFoundSuggestions: "Kein Ziel, das du sehen kannst, heißt '{text}'. Meintest du:{candidates}",
            .ambiguous: "'{text}' passt zu mehreren Zielen; nenne eines davon:{candidates}",
            .notWritable:
                "Du kannst in '{path}' nicht schreiben. Nur Ziele mit Schreibrecht können gewählt werden.",
            .invalidReference: "'{text}' ist kein verwendbares Ziel: {reason}.",
            .unavailableRetryable: "Ziele sind gerade nicht verfügbar ({reason}); versuche es später noch einmal.",
            .unavailable: "Ziele sind nicht verfügbar: {reason}.",
        ])
}
