import Foundation

/// The `Content-Digest` request field of an upload part (RFC 9530), reduced
/// to what the upload protocol needs: the SHA-256 of the body. The client
/// writes it and the server reads it, so both use this one definition.
///
/// The field is a Structured Fields dictionary (RFC 8941) whose members are
/// byte sequences, `sha-256=:<standard base64>:`; a client may send several
/// algorithms (`sha-512=:…:, sha-256=:…:`) and only `sha-256` is read. A
/// field that is not a well-formed dictionary, lacks `sha-256`, or whose
/// value is not 32 bytes of base64 is refused, so a client learns about a
/// broken digest before it sends the body rather than after.
public struct ContentDigest: Hashable, Sendable {
    /// The 32-byte SHA-256 the client announced for the body.
    public let sha256: [UInt8]

    /// Wraps a 32-byte SHA-256.
    /// - Parameter sha256: the digest.
    public init(sha256: [UInt8]) { self.sha256 = sha256 }

    /// Parses the field's lines (several lines of one field join with commas, RFC 9110 section 5.3).
    /// - Parameter lines: every `Content-Digest` line of the request.
    /// - Returns: the digest, or nil when the field is missing or malformed.
    public static func parse(_ lines: [String]) -> ContentDigest? {
        guard !lines.isEmpty else { return nil }
        var found: [UInt8]?
        for member in lines.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false) {
            // Parameters (`;name=value`) may follow a member's value; they do not concern us.
            let withoutParameters = member.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let trimmed = withoutParameters.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let key = trimmed[..<equals]
            let value = trimmed[trimmed.index(after: equals)...]
            guard isKey(key), value.count >= 2, value.first == ":", value.last == ":" else { return nil }
            guard key == "sha-256" else { continue }
            guard let bytes = decodeBase64(value.dropFirst().dropLast()), bytes.count == 32 else { return nil }
            // RFC 8941: a repeated dictionary key takes the last value.
            found = bytes
        }
        return found.map(ContentDigest.init(sha256:))
    }

    /// The field's value for this digest, as a client sends it.
    /// The field value, `sha-256=:<standard base64>:`.
    public var headerValue: String { Self.headerValue(base64: base64) }

    /// The digest in standard base64 with padding (RFC 4648 section 4), as the field carries it.
    public var base64: String { Data(sha256).base64EncodedString() }

    /// The field value for a digest already held as standard base64 (an
    /// upload record keeps its part digests that way).
    /// - Parameter base64: the digest's standard base64.
    /// - Returns: `sha-256=:<base64>:`.
    public static func headerValue(base64: String) -> String { "sha-256=:" + base64 + ":" }

    /// A Structured Fields key: lowercase letter or `*` first, then lowercase, digits, `_-.*`.
    private static func isKey(_ key: Substring) -> Bool {
        guard let first = key.unicodeScalars.first, first == "*" || ("a"..."z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || "_-.*".unicodeScalars.contains($0)
        }
    }

    /// Standard base64 (RFC 4648 section 4), padding optional as RFC 8941's parsers allow.
    private static func decodeBase64(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }) else {
            return nil
        }
        var padded = String(text)
        while padded.utf8.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map(Array.init)
    }
}
