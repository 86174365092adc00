import Foundation
import ShareKitAppSupport
import ShareKitCore

/// What `share login`, `share logout` and `share status` share: the command
/// line with `--help`, the server origin a person may type, and output as
/// text for a person or one JSON object for a script.
struct SessionCommandIO: Sendable {
    /// The command's name after `share` (`login`).
    let command: String
    let io: ProgramIO
    /// Whether `--json` was given: results go to stdout as one object.
    let json: Bool

    /// What parsing a command line came to.
    enum Parsed {
        /// Run the command with these arguments.
        case run(ParsedArguments)
        /// The command is done already (`--help`, a usage error) with this exit code.
        case done(ExitCode)
    }

    /// Parses a command line; answers `--help` and usage errors itself.
    static func parse(
        _ arguments: [String], command: String, help: String, declaration: CommandDeclaration, io: ProgramIO
    ) -> Parsed {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: declaration)
            guard parsed.positionals.isEmpty else {
                throw ProgramError.usage(localized(.unexpectedArgument, ["argument": parsed.positionals[0]]))
            }
        } catch {
            io.err.write(
                "share \(command): "
                    + t(
                        .runHelp,
                        ["message": LocalizedText(describing: error).localized, "command": "share \(command)"])
                    + "\n")
            return .done(.usage)
        }
        if parsed.asksForHelp {
            io.out.write(help)
            return .done(.success)
        }
        return .run(parsed)
    }

    /// A wrong command line: the message on stderr in the person's
    /// language (and as JSON, in English), exit 2.
    func usage(_ message: LocalizedText) -> ExitCode {
        if json { io.writeJSON(["status": "error", "error": JSONValue(message.english)]) }
        io.err.write(
            "share \(command): " + t(.runHelp, ["message": message.localized, "command": "share \(command)"]) + "\n")
        return .usage
    }

    /// A failure: the message on stderr in the person's language (and as
    /// JSON, in English), exit 1.
    func failure(_ message: LocalizedText) -> ExitCode {
        if json { io.writeJSON(["status": "error", "error": JSONValue(message.english)]) }
        io.err.write("share \(command): \(message.localized)\n")
        return .failure
    }
}

/// A server's origin as `share login --server` accepts it.
enum ServerOrigin {
    /// `scheme://host[:port]` in lower case, from `http(s)://host[:port]`
    /// with at most a trailing `/`; nil for anything else (another scheme,
    /// a path, a query, credentials, a port out of range).
    static func parse(_ text: String) -> String? {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil,
            components.fragment == nil, components.path.isEmpty || components.path == "/"
        else { return nil }
        var origin = scheme + "://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        if let port = components.port {
            guard (1...65_535).contains(port) else { return nil }
            origin += ":\(port)"
        }
        return origin
    }

    /// Whether two spellings name the same server: equal as origins
    /// (`HTTP://Host:8080/` and `http://host:8080`), or equal as given when
    /// either is not one.
    static func same(_ one: String, _ other: String) -> Bool {
        let trimmed = { (text: String) in text.hasSuffix("/") ? String(text.dropLast()) : text }
        return (parse(one) ?? trimmed(one)) == (parse(other) ?? trimmed(other))
    }

    /// Whether an origin sends in clear to another machine: `http` to a
    /// host that is not literally loopback. A password or token sent there
    /// can be read by anyone on the path.
    ///
    /// Only a host that reaches this machine without a name lookup counts:
    /// a canonical dotted quad `127.x.y.z` (decimal, no leading zeros, each
    /// at most 255), `[::1]`, and `localhost`, which libcurl (7.78 and later;
    /// Debian 12 ships 7.88) answers itself with 127.0.0.1 and ::1 without
    /// asking `/etc/hosts` or DNS. Anything else goes to the resolver, where
    /// `127.0.0.08`, `127.1` or `foo.localhost` may mean another address: a
    /// resolver's inet_aton reads `010` as octal, a DNS server answers what
    /// it likes.
    /// - Parameter origin: an origin from ``parse(_:)``.
    /// - Returns: true for plain http that is not literally loopback.
    static func isInsecure(_ origin: String) -> Bool {
        guard origin.hasPrefix("http://") else { return false }
        return !isLiteralLoopback(host(of: origin))
    }

    /// The host of an origin from ``parse(_:)``: without the brackets of
    /// an IPv6 address and without the port.
    static func host(of origin: String) -> String {
        var host = String(origin.drop { $0 != ":" }.dropFirst("://".count))
        if host.hasPrefix("[") { return String(host.dropFirst().prefix { $0 != "]" }) }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        return host
    }

    /// Whether a host is loopback by its spelling alone: `localhost`,
    /// `::1`, or `127.x.y.z` with four decimal parts of 0 to 255 and no
    /// leading zeros.
    static func isLiteralLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
            guard part == "0" || part.first != "0" else { return false }
            return Int(part).map { $0 <= 255 } ?? false
        }
    }
}
