import Foundation
public import ShareInboxInterface

/// Reads and writes `manifest.json` of an inbox entry, so the inbox, the
/// CLI and the daemon (`--json`) all use one encoding: the field names of
/// ``InboxManifest``'s documentation, sorted keys, nothing else.
///
/// ```swift
/// let bytes = try InboxManifestCodec.encode(manifest)
/// let again = try InboxManifestCodec.decode(bytes)  // InboxManifestCodecError names the field
/// ```
public enum InboxManifestCodec {
    /// The largest manifest read: a manifest holds a comment and a list of
    /// files, so anything bigger is not one of ours.
    public static let maximumSize = 1 << 20

    /// The manifest as JSON with sorted keys.
    /// - Parameters:
    ///   - manifest: the manifest.
    ///   - pretty: indented, for a person (`--json`); compact on disk.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``InboxManifestCodecError/notEncodable(_:)`` (a value JSON cannot hold).
    public static func encode(_ manifest: InboxManifest, pretty: Bool = false) throws(InboxManifestCodecError)
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        do {
            return Array(try encoder.encode(manifest))
        } catch {
            throw .notEncodable(String(describing: error))
        }
    }

    /// Parses a manifest, checking its format version before anything else,
    /// so a manifest written by a newer ShareKit is named as such instead of
    /// failing on a field it may have changed.
    /// - Parameter bytes: the contents of `manifest.json`.
    /// - Returns: the manifest.
    /// Every number is range-checked here (``ShareInboxInterface/InboxManifest/rangeProblem``),
    /// so no caller does arithmetic on a count or size nobody wrote.
    /// - Throws: ``InboxManifestCodecError``: not JSON, a newer or unknown
    ///   format, a missing or mistyped field, a field out of its range.
    public static func decode(_ bytes: [UInt8]) throws(InboxManifestCodecError) -> InboxManifest {
        let manifest: InboxManifest
        do {
            // One parse: the version is looked at before the other fields are decoded.
            manifest = try JSONDecoder().decode(VersionFirst.self, from: Data(bytes)).manifest
        } catch let error as InboxManifestCodecError {
            throw error
        } catch {
            throw InboxManifestCodecError(error)
        }
        if let problem = manifest.rangeProblem { throw .outOfRange(problem) }
        return manifest
    }

    /// A manifest whose format version is checked before anything else is decoded.
    private struct VersionFirst: Decodable {
        let manifest: InboxManifest

        init(from decoder: any Decoder) throws {
            let version = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .formatVersion)
            if version > InboxManifest.currentFormatVersion { throw InboxManifestCodecError.newerFormat(version) }
            if version < 1 { throw InboxManifestCodecError.unknownFormat(version) }
            manifest = try InboxManifest(from: decoder)
        }

        private enum CodingKeys: String, CodingKey { case formatVersion = "format_version" }
    }
}

/// Why a manifest could not be read or written. The messages name fields
/// and formats, never the values (a comment is the person's text).
public enum InboxManifestCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a JSON object.
    case notJSON
    /// Written by a newer ShareKit with this format version.
    case newerFormat(Int)
    /// A format version that never existed (zero or negative).
    case unknownFormat(Int)
    /// A required field is absent (or null); the dotted path names it.
    case missingField(String)
    /// A field has the wrong JSON type; the dotted path names it.
    case wrongType(String)
    /// The manifest holds a value JSON cannot represent.
    case notEncodable(String)
    /// A field is outside its range (a count, a size, a time, a length);
    /// the text names the field and the range.
    case outOfRange(String)

    /// The message for a person.
    public var description: String {
        switch self {
        case .notJSON: return "it is not a JSON object"
        case .newerFormat(let version): return "it was written by a newer ShareKit (format \(version))"
        case .unknownFormat(let version): return "its format version \(version) is unknown"
        case .missingField(let field): return "the field '\(field)' is missing"
        case .wrongType(let field): return "the field '\(field)' has the wrong type"
        case .notEncodable(let reason): return "it cannot be encoded: \(reason)"
        case .outOfRange(let problem): return problem
        }
    }

    /// Classifies what `JSONDecoder` threw.
    init(_ error: any Error) {
        guard let decoding = error as? DecodingError else {
            self = .notJSON
            return
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            self = .missingField(Self.path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            self = .missingField(Self.path(context.codingPath))
        case .typeMismatch(_, let context):
            self = context.codingPath.isEmpty ? .notJSON : .wrongType(Self.path(context.codingPath))
        case .dataCorrupted(let context):
            self = context.codingPath.isEmpty ? .notJSON : .wrongType(Self.path(context.codingPath))
        @unknown default:
            self = .notJSON
        }
    }

    /// `attachments.0.size` for a coding path.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
