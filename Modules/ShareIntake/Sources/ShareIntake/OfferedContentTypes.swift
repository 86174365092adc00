/// The content types ShareKit asks the desktop to offer it for (the
/// "Offered" stage of a share): the one list the freedesktop desktop entry
/// `contrib/desktop/sharekit.desktop` is generated from, and that a test
/// compares with the file.
///
/// Every type is concrete: never `*/*` and never a bare
/// `application/octet-stream`, which would put ShareKit into "Open with" for
/// everything (the desktop's counterpart of a `TRUEPREDICATE` activation
/// rule). Links are offered as the types a desktop hands them over in:
/// `text/uri-list` (a drag of links or files, XDND and Wayland) and
/// `text/x-uri` (one location, the shared MIME database's name, which some
/// Wayland sources announce for a link); text as `text/plain`. An
/// `x-scheme-handler/http` would make ShareKit a web browser, the program
/// that opens every link, which is no share: it is never listed. The ranking of ``FileShareIntake`` decides what an item is once it
/// is offered; a type listed here but refused by a server's
/// `accepted_content_types` still ends in a visible refusal, never silence.
public enum OfferedContentTypes {
    /// Images, PDF documents, plain and structured text, and office documents,
    /// in the order the desktop entry lists them.
    public static let all: [String] = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "image/avif", "image/tiff",
        "image/bmp", "image/svg+xml",
        "application/pdf",
        "text/plain", "text/markdown", "text/csv", "text/html", "text/uri-list", "text/x-uri",
        "application/json", "application/zip",
        "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]
}
