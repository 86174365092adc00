import Foundation
import ShareKitAppSupport
import ShareKitCore

/// What the desktop hands `share send --desktop` (the desktop entry's
/// `Exec=share send --desktop %U`), made into the items of a share.
///
/// With `%U` the desktop passes URLs: a local file as a path or a `file://`
/// URL (a file), a web page as its `https://` URL (a link, which the
/// ordinary classification of `share send` already makes). With `%F` a
/// desktop would have downloaded a web page and passed the copy, so a link
/// became a file; that is why the entry asks for URLs.
///
/// Everything after `--desktop` is an item the desktop handed over, never
/// an option: a file named `--server=http://evil.example` is that file.
///
/// A share sends only what the person handed over. A file named
/// `*.uri-list` whose content is a `text/uri-list` (RFC 2483: one URI a
/// line, CRLF or LF, lines beginning with `#` are comments; at most
/// ``maximumListBytes``, UTF-8) is the links it lists, and only links: a
/// `file:` URI in it would hand over a file the person never saw, so such
/// a list is refused and nothing is shared. A file is never taken for a list
/// by its content alone (a `cat.jpg` full of `file://` lines is a file
/// called `cat.jpg`), and anything that is not a list stays a file.
enum DesktopHandover {
    /// The largest file read as a list of links.
    static let maximumListBytes = 64 * 1024
    /// How the name of a list of links ends (there is no glob for
    /// `text/uri-list` in the shared MIME database; this is the name its
    /// type is written as).
    static let listSuffix = ".uri-list"

    /// A `share send` command line with `--desktop`, split where the
    /// desktop's part begins.
    struct Arguments: Equatable {
        /// The options (and any files) before `--desktop`, as the person or
        /// the desktop entry wrote them.
        var options: [String]
        /// Everything after `--desktop`: each a file or URL the desktop
        /// handed over, whatever it looks like.
        var items: [String]
    }

    /// Splits a `share send` command line at its `--desktop` option.
    /// - Parameter arguments: `share send`'s arguments.
    /// - Returns: the two parts, or nil when `--desktop` is not given as an
    ///   option (not at all, as an option's value, or after `--`).
    static func split(_ arguments: [String]) -> Arguments? {
        let takesValue = Set(ShareCommands.send.allOptions.filter { $0.value != .none }.map(\.name))
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if argument == "--desktop" {
                return Arguments(
                    options: Array(arguments[..<index]), items: Array(arguments[(index + 1)...]))
            }
            index += takesValue.contains(argument) ? 2 : 1
        }
        return nil
    }

    /// An item as `share send` is to read it after `--`: a name that begins
    /// with `-` (which no URL and no absolute path does) is a file in the
    /// current folder, so `-` is that file, not standard input.
    /// - Parameter item: a handed-over file or URL.
    /// - Returns: the item, `./`-prefixed when it begins with `-`.
    static func positional(_ item: String) -> String {
        item.hasPrefix("-") ? "./" + item : item
    }

    /// The items with each `*.uri-list` file replaced by the links it lists.
    /// - Parameter items: the handed-over files and URLs.
    /// - Returns: the items to share.
    /// - Throws: a `ProgramError` (exit 4) when a list names a local file
    ///   (`file:`): nothing of it is read, nothing is sent. The message
    ///   names the list and the line, neutralised (a file name may carry
    ///   escape sequences).
    static func expand(_ items: [String]) throws(ProgramError) -> [String] {
        var result: [String] = []
        for item in items {
            guard let path = localPath(of: item), isListName(path) else {
                result.append(item)
                continue
            }
            switch list(at: path) {
            case .links(let links): result += links
            case .namesLocalFile(let uri):
                throw ProgramError(
                    .rejected,
                    localized(
                        .desktopListNamesFile,
                        ["list": TerminalText.neutralised(item), "uri": TerminalText.neutralised(uri)]))
            case nil: result.append(item)
            }
        }
        return result
    }

    /// Whether a path's name says it is a list of links (`links.uri-list`,
    /// any case; not `.uri-list` alone, which names nothing).
    static func isListName(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        return name.count > listSuffix.count && name.hasSuffix(listSuffix)
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

    /// What a list file holds.
    enum List: Equatable {
        /// Links only.
        case links([String])
        /// A line that names a local file (the first such line).
        case namesLocalFile(String)
    }

    /// The list in the file at `path`, or nil when it is no list: not a
    /// regular file (a FIFO is never read, it could block), empty, larger
    /// than ``maximumListBytes``, not UTF-8, or not RFC 2483.
    /// - Parameter path: a local file.
    static func list(at path: String) -> List? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            info.st_size <= maximumListBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            count += n
        }
        guard count <= maximumListBytes, let text = String(validating: bytes[0..<count], as: UTF8.self) else {
            return nil
        }
        return parse(text)
    }

    /// The URIs of a `text/uri-list` document, or nil when it is not one.
    /// - Parameter text: the document.
    static func parse(_ text: String) -> List? {
        var uris: [String] = []
        // "\r\n" is one Character in Swift: a line ends at either form.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.isEmpty || line.hasPrefix("#") { continue }
            // Any spelling of a file URI (`file:/p`, `FILE://localhost/p`) names a local file.
            if line.lowercased().hasPrefix("file:") { return .namesLocalFile(String(line)) }
            guard isAbsoluteURI(line) else { return nil }
            uris.append(String(line))
        }
        return uris.isEmpty ? nil : .links(uris)
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
