public import ShareKitDPoPInterface

/// An `http` or `https` URL reduced to what a DPoP `htu` claim carries
/// (RFC 9449 section 4.2: the URI without query and fragment), in the
/// normal form of RFC 3986 section 6.2.2 and 6.2.3.
///
/// Servers compare `htu` in different ways: exact string comparison with
/// their own idea of the URL, equality in the manner of `java.net.URI`, or
/// WHATWG origin plus path. A proof survives all of them only if the client
/// writes the form they all agree on, and a verifier is only fair if it
/// compares in that form too. So both sides use this type:
///
/// - scheme and host in lowercase (6.2.2.1);
/// - percent-escapes with uppercase hex digits (6.2.2.1), and escapes of
///   unreserved characters decoded (6.2.2.2);
/// - dot segments removed from the path (6.2.2.3, RFC 3986 section 5.2.4);
/// - the default port dropped (80 for `http`, 443 for `https`), an empty
///   port dropped, and an empty path written as `/` (6.2.3);
/// - no user information, query or fragment.
///
/// Characters that may not appear in a URI (spaces, non-ASCII) are
/// percent-encoded as UTF-8, as browsers do; a `%` not followed by two hex
/// digits makes the URL invalid.
public struct HTTPTargetURI: Hashable, Sendable, CustomStringConvertible {
    /// The longest URL accepted, in UTF-8 bytes; longer input is refused
    /// rather than processed (verifiers see hostile input).
    public static let maxLength = 8192

    /// `http` or `https`.
    public let scheme: String
    /// The host, lowercase; an IPv6 literal keeps its brackets.
    public let host: String
    /// The port when it is not the scheme's default.
    public let port: Int?
    /// The normalized path, starting with `/`.
    public let path: String

    /// The `htu` form: `scheme://host[:port]/path`.
    public var canonical: String { origin + path }

    /// The origin, `scheme://host[:port]`: the key of the client's nonce cache.
    public var origin: String {
        if let port { return scheme + "://" + host + ":" + String(port) }
        return scheme + "://" + host
    }

    /// The canonical form.
    public var description: String { canonical }

    /// Parses and normalizes a URL.
    /// - Parameter text: an absolute `http` or `https` URL.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/invalidURL(_:)`` with the reason
    ///   (never the URL itself) when it cannot be used.
    public init(_ text: String) throws(DPoPError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxLength else { throw .invalidURL("longer than \(Self.maxLength) bytes") }
        var index = 0

        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        var schemeBytes = [UInt8]()
        while index < bytes.count, bytes[index] != 0x3A {
            let b = Self.lowercased(bytes[index])
            let allowed =
                Self.isAlpha(b) || (!schemeBytes.isEmpty && (Self.isDigit(b) || b == 0x2B || b == 0x2D || b == 0x2E))
            guard allowed else { throw .invalidURL("the scheme is not valid") }
            schemeBytes.append(b)
            index += 1
        }
        guard index < bytes.count, !schemeBytes.isEmpty else { throw .invalidURL("it is not an absolute URL") }
        let scheme = String(decoding: schemeBytes, as: UTF8.self)
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: throw .invalidURL("the scheme must be http or https")
        }
        index += 1  // ":"
        guard index + 1 < bytes.count, bytes[index] == 0x2F, bytes[index + 1] == 0x2F else {
            throw .invalidURL("an authority (//host) is required")
        }
        index += 2

        // Authority: up to the first "/", "?" or "#".
        let authorityStart = index
        while index < bytes.count, bytes[index] != 0x2F, bytes[index] != 0x3F, bytes[index] != 0x23 { index += 1 }
        var authority = bytes[authorityStart..<index]
        // User information is not part of what a server compares; drop it.
        if let at = authority.lastIndex(of: 0x40) { authority = authority[(at + 1)...] }
        let (host, port) = try Self.hostAndPort(authority, defaultPort: defaultPort)

        // Path: up to "?" or "#"; query and fragment are dropped.
        let pathStart = index
        while index < bytes.count, bytes[index] != 0x3F, bytes[index] != 0x23 { index += 1 }
        let normalized = try Self.normalizePercentEncoding(bytes[pathStart..<index], isHost: false)
        var path = Self.removeDotSegments(normalized)
        if path.isEmpty { path = [0x2F] }

        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = String(decoding: path, as: UTF8.self)
    }

    // MARK: Authority

    private static func hostAndPort(_ authority: ArraySlice<UInt8>, defaultPort: Int) throws(DPoPError) -> (
        String, Int?
    ) {
        var hostPart = authority
        var portPart = ArraySlice<UInt8>()
        if authority.first == 0x5B {
            // IP literal: "[" ... "]" [":" port]
            guard let close = authority.firstIndex(of: 0x5D) else { throw .invalidURL("an IPv6 host lacks its ]") }
            hostPart = authority[authority.startIndex...close]
            let rest = authority[(close + 1)...]
            if let first = rest.first {
                guard first == 0x3A else { throw .invalidURL("unexpected characters after the IPv6 host") }
                portPart = rest.dropFirst()
            }
            let inner = hostPart.dropFirst().dropLast()
            guard !inner.isEmpty,
                inner.allSatisfy({ isHexDigit($0) || $0 == 0x3A || $0 == 0x2E || isUnreserved($0) || isSubDelim($0) })
            else { throw .invalidURL("the IPv6 host is not valid") }
        } else if let colon = authority.firstIndex(of: 0x3A) {
            hostPart = authority[authority.startIndex..<colon]
            portPart = authority[(colon + 1)...]
        }
        guard !hostPart.isEmpty else { throw .invalidURL("the host is empty") }
        let hostBytes: [UInt8]
        if hostPart.first == 0x5B {
            hostBytes = hostPart.map(lowercased)
        } else {
            hostBytes = try normalizePercentEncoding(hostPart, isHost: true)
        }

        var port: Int? = nil
        if !portPart.isEmpty {
            guard portPart.allSatisfy(isDigit) else { throw .invalidURL("the port is not a number") }
            // Leading zeros do not change the port; skip them before the range check.
            let significant = portPart.drop(while: { $0 == 0x30 })
            guard significant.count <= 5 else { throw .invalidURL("the port is out of range") }
            let value = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 65535 else { throw .invalidURL("the port is out of range") }
            if value != defaultPort { port = value }
        }
        return (String(decoding: hostBytes, as: UTF8.self), port)
    }

    // MARK: Percent-encoding (RFC 3986 6.2.2.1 and 6.2.2.2)

    /// Uppercases the hex digits of escapes, decodes escapes of unreserved
    /// characters, lowercases a host, and escapes bytes a URI cannot hold.
    private static func normalizePercentEncoding(_ input: ArraySlice<UInt8>, isHost: Bool) throws(DPoPError)
        -> [UInt8]
    {
        var out = [UInt8]()
        out.reserveCapacity(input.count)
        var i = input.startIndex
        while i < input.endIndex {
            let b = input[i]
            if b == 0x25 {
                guard i + 2 < input.endIndex, let high = hexValue(input[i + 1]), let low = hexValue(input[i + 2]) else {
                    throw .invalidURL("a % is not followed by two hex digits")
                }
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    out.append(isHost ? lowercased(decoded) : decoded)
                } else {
                    appendEscape(decoded, to: &out)
                }
                i += 3
                continue
            }
            if isHost {
                if isUnreserved(b) || isSubDelim(b) {
                    out.append(lowercased(b))
                } else if b >= 0x80 {
                    appendEscape(b, to: &out)
                } else {
                    throw .invalidURL("the host has a character that is not allowed")
                }
            } else if isUnreserved(b) || isSubDelim(b) || b == 0x3A || b == 0x40 || b == 0x2F {
                out.append(b)
            } else {
                // Spaces, controls, non-ASCII bytes and delimiters such as
                // `"<>\^`{|}` cannot stand in a path: escape them as browsers do.
                appendEscape(b, to: &out)
            }
            i += 1
        }
        return out
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        out.append(0x25)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
    }

    // MARK: Dot segments (RFC 3986 5.2.4)

    /// Removes `.` and `..` segments the way RFC 3986 section 5.2.4 does.
    private static func removeDotSegments(_ path: [UInt8]) -> [UInt8] {
        var input = path[...]
        var output = [UInt8]()
        func hasPrefix(_ s: ArraySlice<UInt8>, _ p: [UInt8]) -> Bool { s.starts(with: p) }
        func removeLastSegment(_ output: inout [UInt8]) {
            if let slash = output.lastIndex(of: 0x2F) {
                output.removeSubrange(slash...)
            } else {
                output.removeAll()
            }
        }
        let dotDotSlash: [UInt8] = [0x2E, 0x2E, 0x2F]
        let dotSlash: [UInt8] = [0x2E, 0x2F]
        let slashDotSlash: [UInt8] = [0x2F, 0x2E, 0x2F]
        let slashDot: [UInt8] = [0x2F, 0x2E]
        let slashDotDotSlash: [UInt8] = [0x2F, 0x2E, 0x2E, 0x2F]
        let slashDotDot: [UInt8] = [0x2F, 0x2E, 0x2E]
        while !input.isEmpty {
            if hasPrefix(input, dotDotSlash) {  // A: "../"
                input = input.dropFirst(3)
            } else if hasPrefix(input, dotSlash) {  // A: "./"
                input = input.dropFirst(2)
            } else if hasPrefix(input, slashDotSlash) {  // B: "/./" -> "/"
                input = input.dropFirst(2)
            } else if input.elementsEqual(slashDot) {  // B: "/." at the end -> "/"
                input = [0x2F][...]
            } else if hasPrefix(input, slashDotDotSlash) {  // C: "/../" -> "/", drop a segment
                input = input.dropFirst(3)
                removeLastSegment(&output)
            } else if input.elementsEqual(slashDotDot) {  // C: "/.." at the end
                input = [0x2F][...]
                removeLastSegment(&output)
            } else if input.elementsEqual([0x2E]) || input.elementsEqual([0x2E, 0x2E]) {  // D
                input = []
            } else {  // E: move the first segment (with its leading "/") to the output
                var end = input.startIndex
                if input[end] == 0x2F { end += 1 }
                while end < input.endIndex, input[end] != 0x2F { end += 1 }
                output.append(contentsOf: input[input.startIndex..<end])
                input = input[end...]
            }
        }
        return output
    }

    // MARK: Character classes (RFC 3986 section 2)

    private static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isHexDigit(_ b: UInt8) -> Bool { hexValue(b) != nil }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        isAlpha(b) || isDigit(b) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    private static func isSubDelim(_ b: UInt8) -> Bool {
        // ! $ & ' ( ) * + , ; =
        switch b {
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return true
        default: return false
        }
    }

    private static func lowercased(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
