import Foundation
import ShareKitIntakeInterface

/// Tells a path from a link on the command line: a `file://` URL and
/// anything that is not a URL are files; only a URL that is not a file is
/// a link. Nothing is read here (whether a path exists is the load's
/// business, so that the error is ``IntakeError/notFound(item:)``).
enum ArgumentClassifier {
    /// URL schemes without `//` that are still links, not file names.
    static let opaqueLinkSchemes: Set<String> = ["mailto"]

    static func source(forArgument argument: String) throws(IntakeError) -> ShareItemSource {
        guard !argument.isEmpty else { throw .invalidItem(item: argument, reason: "an empty argument names nothing") }
        guard let scheme = scheme(of: argument) else { return .file(path: argument) }
        if scheme == "file" { return .file(path: try filePath(ofURL: argument)) }
        let rest = argument.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") || opaqueLinkSchemes.contains(scheme) else { return .file(path: argument) }
        guard !argument.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .invalidItem(item: argument, reason: "a link cannot contain spaces or control characters")
        }
        if scheme == "http" || scheme == "https" {
            let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard !authority.isEmpty else { throw .invalidItem(item: argument, reason: "the link names no host") }
        }
        return .link(argument)
    }

    /// The lowercased scheme of `scheme:...` (RFC 3986: a letter, then
    /// letters, digits, `+`, `-`, `.`), or nil.
    private static func scheme(of argument: String) -> String? {
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let candidate = argument[..<colon]
        let scalars = candidate.unicodeScalars
        guard let first = scalars.first, isASCIILetter(first),
            scalars.allSatisfy({ isASCIILetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return candidate.lowercased()
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// The decoded path of a `file:` URL (`file:///p`, `file://localhost/p`, `file:/p`).
    private static func filePath(ofURL argument: String) throws(IntakeError) -> String {
        var rest = Substring(argument.dropFirst("file:".count))
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let host = afterSlashes.prefix { $0 != "/" }
            guard host.isEmpty || host.lowercased() == "localhost" else {
                throw .invalidItem(
                    item: argument, reason: "a file:// URL must name a file on this computer, not on \(host)")
            }
            rest = afterSlashes.dropFirst(host.count)
        }
        guard rest.hasPrefix("/") else { throw .invalidItem(item: argument, reason: "the file:// URL has no path") }
        guard let path = String(rest).removingPercentEncoding, !path.contains("\0") else {
            throw .invalidItem(item: argument, reason: "the file:// URL cannot be decoded (bad %-escape or not UTF-8)")
        }
        return path
    }
}
