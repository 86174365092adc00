public import ShareKitCore

/// The texts of ``IntakeError``, English and German (see `StringTable` for
/// how to add one). The `reason` of `unreadable` and `invalidItem` comes
/// from the code that found the problem and is shown as it is.
public enum IntakeText: String, StringTableKey {
    case notFound = "intake.not_found"
    case unreadable = "intake.unreadable"
    case deadlineExceeded = "intake.deadline_exceeded"
    case unsupportedType = "intake.unsupported_type"
    case acceptsNone = "intake.accepts_none"
    case notConvertible = "intake.not_convertible"
    case metadataNotRemovable = "intake.metadata_not_removable"
    case tooLarge = "intake.too_large"
    case copyMismatch = "intake.copy_mismatch"
    case noSpace = "intake.no_space"
    case invalidItem = "intake.invalid_item"
    case protectedFile = "intake.protected_file"
    case empty = "intake.empty"

    /// The table.
    public static let table = StringTable<IntakeText>(
        english: [
            .notFound: "{item}: no such file",
            .unreadable: "{item}: cannot be read: {reason}",
            .deadlineExceeded: "{item}: loading did not finish within {seconds} seconds",
            .unsupportedType: "{item}: the server does not accept {type} (it accepts {accepted})",
            .acceptsNone: "none",
            .notConvertible: "{item}: the server does not accept {type}, and it cannot be converted to JPEG: {reason}",
            .metadataNotRemovable:
                "{item}: not shared: its location and other identifying metadata cannot be removed: {reason} "
                + "(--keep-metadata sends it as it is)",
            .tooLarge:
                "{item}: {human} ({size} bytes) is over the server's limit of {limit_human} ({limit} bytes, "
                + "file_max_upload_bytes)",
            .copyMismatch:
                "{item}: the copy has {actual} bytes, the file had {expected} (did it change while being read?)",
            .noSpace: "{item}: no space left to keep a copy in the share inbox",
            .invalidItem: "{item}: {reason}",
            .protectedFile:
                "{item}: not shared: it is in {place}, where keys, passwords or tokens are kept, and a share "
                + "never reads a file from there",
            .empty: "nothing to share: give a file, a link, --text or --stdin",
        ],
        german: [
            .notFound: "{item}: keine solche Datei",
            .unreadable: "{item}: kann nicht gelesen werden: {reason}",
            .deadlineExceeded: "{item}: das Laden wurde nicht innerhalb von {seconds} Sekunden fertig",
            .unsupportedType: "{item}: der Server nimmt {type} nicht an (er nimmt {accepted} an)",
            .acceptsNone: "nichts",
            .notConvertible:
                "{item}: der Server nimmt {type} nicht an, und es kann nicht in JPEG umgewandelt werden: {reason}",
            .metadataNotRemovable:
                "{item}: nicht geteilt: Aufnahmeort und andere persönliche Metadaten lassen sich nicht entfernen: "
                + "{reason} (--keep-metadata sendet die Datei unverändert)",
            .tooLarge:
                "{item}: {human} ({size} Bytes) liegt über dem Limit des Servers von {limit_human} ({limit} Bytes, "
                + "file_max_upload_bytes)",
            .copyMismatch:
                "{item}: die Kopie hat {actual} Bytes, die Datei hatte {expected} (wurde sie beim Lesen geändert?)",
            .noSpace: "{item}: kein Platz mehr, um eine Kopie im Teilen-Eingang abzulegen",
            .invalidItem: "{item}: {reason}",
            .protectedFile:
                "{item}: nicht geteilt: die Datei liegt in {place}, wo Schlüssel, Passwörter oder Tokens "
                + "aufbewahrt werden, und Teilen liest nie eine Datei von dort",
            .empty: "nichts zu teilen: gib eine Datei, einen Link, --text oder --stdin an",
        ],
        sameInEveryLanguage: [.invalidItem])
}
