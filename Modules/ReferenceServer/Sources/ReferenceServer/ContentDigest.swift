import Foundation

/// The `Content-Digest` request field of an upload part (RFC 9530), reduced
/// to what the upload protocol needs: the SHA-256 of the body.
///
/// The field is a Structured Fields dictionary (RFC 8941) whose members are
/// byte sequences, `sha-256=:<standard base64>:`; a client may send several
/// algorithms (`sha-512=:…:, sha-256=:…:`) and only `sha-256` is read. A
/// field that is not a well-formed dictionary, lacks `sha-256`, or whose
/// value is not 32 bytes of base64 is refused, so a client learns about a
/// broken digest before it sends the body rather than after.
struct ContentDigest: Equatable {
    /// The 32-byte SHA-256 the client announced for the body.
    let sha256: [UInt8]

    /// Parses the field's lines (several lines of one field join with commas, RFC 9110 section 5.3).
    /// - Parameter lines: every `Content-Digest` line of the request.
    /// - Returns: the digest, or nil when the field is missing or malformed.
    static func parse(_ lines: [String]) -> ContentDigest? {
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
    var headerValue: String { "sha-256=:" + Data(sha256).base64EncodedString() + ":" }

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
