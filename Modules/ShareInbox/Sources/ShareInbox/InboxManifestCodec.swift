import Foundation
public import ShareKitInboxInterface

/// Reads and writes `manifest.json` of an inbox entry, so the inbox, the
/// CLI and the daemon (`--json`) all use one encoding: the field names of
/// ``InboxManifest``'s documentation, sorted keys, nothing else.
///
/// ```swift
/// let bytes = try InboxManifestCodec.encode(manifest)
/// let again = try InboxManifestCodec.decode(bytes)  // InboxError names the field
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
    /// - Throws: ``ShareKitInboxInterface/InboxError/manifestNotEncodable(_:)`` (a value JSON cannot hold).
    public static func encode(_ manifest: InboxManifest, pretty: Bool = false) throws(InboxError)
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        do {
            return Array(try encoder.encode(manifest))
        } catch {
            throw .manifestNotEncodable(String(describing: error))
        }
    }

    /// Parses a manifest, checking its format version before anything else,
    /// so a manifest written by a newer ShareKit is named as such instead of
    /// failing on a field it may have changed.
    /// - Parameter bytes: the contents of `manifest.json`.
    /// - Returns: the manifest.
    /// Every number is range-checked here (``ShareKitInboxInterface/InboxManifest/rangeProblem``),
    /// so no caller does arithmetic on a count or size nobody wrote.
    /// - Throws: ``ShareKitInboxInterface/InboxError``'s `manifest…` cases: not JSON, a newer or unknown
    ///   format, a missing or mistyped field, a field out of its range.
    public static func decode(_ bytes: [UInt8]) throws(InboxError) -> InboxManifest {
        let manifest: InboxManifest
        do {
            // One parse: the version is looked at before the other fields are decoded.
            manifest = try JSONDecoder().decode(VersionFirst.self, from: Data(bytes)).manifest
        } catch let error as InboxError {
            throw error
        } catch {
            throw InboxError.manifest(decoding: error)
        }
        if let problem = manifest.rangeProblem { throw .manifestOutOfRange(problem) }
        return manifest
    }

    /// A manifest whose format version is checked before anything else is decoded.
    private struct VersionFirst: Decodable {
        let manifest: InboxManifest

        init(from decoder: any Decoder) throws {
            let version = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .formatVersion)
            if version > InboxManifest.currentFormatVersion { throw InboxError.manifestNewerFormat(version) }
            if version < 1 { throw InboxError.manifestUnknownFormat(version) }
            manifest = try InboxManifest(from: decoder)
        }

        private enum CodingKeys: String, CodingKey { case formatVersion = "format_version" }
    }
}

extension InboxError {
    /// The manifest problem `JSONDecoder` threw: the field it names.
    /// - Parameter error: what the decoder threw.
    static func manifest(decoding error: any Error) -> InboxError {
        guard let decoding = error as? DecodingError else { return .manifestNotJSON }
        switch decoding {
        case .keyNotFound(let key, let context):
            return .manifestMissingField(path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            return .manifestMissingField(path(context.codingPath))
        case .typeMismatch(_, let context):
            return context.codingPath.isEmpty ? .manifestNotJSON : .manifestWrongType(path(context.codingPath))
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? .manifestNotJSON : .manifestWrongType(path(context.codingPath))
        @unknown default:
            return .manifestNotJSON
        }
    }

    /// `attachments.0.size` for a coding path.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
