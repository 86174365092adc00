import AppSupport
import Foundation
import ShareCore

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
                throw UsageError(localized(.unexpectedArgument, ["argument": parsed.positionals[0]]))
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

    /// Whether an origin sends in clear to another machine: `http` to a
    /// host that is not loopback (`localhost`, `127.0.0.0/8`, `::1`). A
    /// password or token sent there can be read by anyone on the path.
    /// - Parameter origin: an origin from ``parse(_:)``.
    /// - Returns: true for plain http off this machine.
    static func isInsecure(_ origin: String) -> Bool {
        guard origin.hasPrefix("http://") else { return false }
        var host = String(origin.dropFirst("http://".count))
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return false }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }), octets[0] == "127" { return false }
        return true
    }
}
