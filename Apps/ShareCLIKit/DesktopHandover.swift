import AppSupport
import Foundation

/// What the desktop hands `share send --desktop` (the desktop entry's
/// `Exec=share send --desktop %U`), made into the items of a share.
///
/// With `%U` the desktop passes URLs: a local file as a path or a `file://`
/// URL (a file), a web page as its `https://` URL (a link, which the
/// ordinary classification of `share send` already makes). With `%F` a
/// desktop would have downloaded a web page and passed the copy, so a link
/// became a file; that is why the entry asks for URLs.
///
/// A file the desktop hands over that is a `text/uri-list` (RFC 2483: one
/// URI a line, CRLF or LF, lines beginning with `#` are comments), as a drag
/// of links saved to a file is, is what it lists: each URI becomes an item
/// (`https://…` a link, `file://…` a file). Such a file is told by its
/// content, since the shared MIME database has no name pattern for it: a
/// regular file of at most ``maximumListBytes``, UTF-8, with at least one
/// URI and nothing but URIs and comments. Anything else stays a file.
enum DesktopHandover {
    /// The largest file read as a list of links.
    static let maximumListBytes = 64 * 1024

    /// The command line with each handed-over `text/uri-list` file replaced
    /// by the URIs it lists; options and their values are left alone.
    /// - Parameter arguments: `share send`'s arguments without `--desktop`.
    /// - Returns: the arguments to send.
    static func expand(_ arguments: [String]) -> [String] {
        let takesValue = Set(ShareCommands.send.allOptions.filter { $0.value != .none }.map(\.name))
        var result: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !onlyPositionals, argument == "--" {
                onlyPositionals = true
                result.append(argument)
                continue
            }
            if !onlyPositionals, argument.hasPrefix("-"), argument != "-" {
                result.append(argument)
                if takesValue.contains(argument), index < arguments.count {
                    result.append(arguments[index])
                    index += 1
                }
                continue
            }
            result += uriList(at: localPath(of: argument)) ?? [argument]
        }
        return result
    }

    /// The path an argument names when it is a local file: a path, or the
    /// decoded path of a `file://` URL on this computer; nil for other URLs.
    static func localPath(of argument: String) -> String? {
        guard argument.lowercased().hasPrefix("file:") else {
            return argument.contains("://") ? nil : argument
        }
        guard let url = URL(string: argument), url.isFileURL, ["", "localhost"].contains(url.host ?? "") else {
            return nil
        }
        return url.path
    }

    /// The URIs of a `text/uri-list` file, or nil when `path` is not one.
    /// - Parameter path: a local file, or nil.
    static func uriList(at path: String?) -> [String]? {
        guard let path else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            info.st_size <= maximumListBytes,
            let data = FileManager.default.contents(atPath: path), data.count <= maximumListBytes,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return parse(text)
    }

    /// The URIs of a `text/uri-list` document, or nil when it is not one.
    /// - Parameter text: the document.
    static func parse(_ text: String) -> [String]? {
        var uris: [String] = []
        // "\r\n" is one Character in Swift: a line ends at either form.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard isAbsoluteURI(line) else { return nil }
            uris.append(String(line))
        }
        return uris.isEmpty ? nil : uris
    }

    /// Whether a line is one URI that can be an item: a scheme (RFC 3986: a
    /// letter, then letters, digits, `+`, `-`, `.`) followed by `://`, or a
    /// `mailto:` address, and no space or control character. A line such
    /// as `todo:buy milk` is not, so a note with a colon stays a file.
    static func isAbsoluteURI(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return false }
        let scheme = line[..<colon].unicodeScalars
        let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        let others = Set("0123456789+-.".unicodeScalars)
        guard let first = scheme.first, letters.contains(first),
            scheme.allSatisfy({ letters.contains($0) || others.contains($0) })
        else { return false }
        let rest = line[line.index(after: colon)...]
        guard rest.hasPrefix("//") || line[..<colon].lowercased() == "mailto" else { return false }
        return rest.count > 2 && !rest.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    }
}
