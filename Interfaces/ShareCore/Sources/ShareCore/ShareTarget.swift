/// Where a share goes: a thread, a channel's main timeline, or a new post
/// in a forum channel (docs/protocol.md, "Share targets").
public struct ShareTarget: Hashable, Sendable, Codable {
    /// The three kinds of target the protocol knows.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case thread
        case channel
        case newPost = "new_post"
    }

    /// What kind of target this is.
    public var kind: Kind
    /// The thread id, or the channel id for `.channel` and `.newPost`.
    public var id: String
    /// The path a person recognises, `space > channel > thread`.
    public var displayPath: String

    /// Makes a target.
    public init(kind: Kind, id: String, displayPath: String) {
        self.kind = kind
        self.id = id
        self.displayPath = displayPath
    }

    private enum CodingKeys: String, CodingKey {
        case kind, id
        case displayPath = "display_path"
    }

    /// Parses the command-line form `thread:ID`, `channel:ID` or
    /// `new-post:CHANNEL_ID`; returns nil for anything else (which the CLI
    /// then treats as a display path to resolve).
    /// - Throws: ``ShareCoreError/invalidTarget(_:)`` when the prefix is
    ///   known but the id is empty or has whitespace.
    public static func parseReference(_ text: String) throws -> ShareTarget? {
        let prefixes: [(String, Kind)] = [("thread:", .thread), ("channel:", .channel), ("new-post:", .newPost)]
        for (prefix, kind) in prefixes where text.hasPrefix(prefix) {
            let id = String(text.dropFirst(prefix.count))
            guard !id.isEmpty, !id.contains(where: { $0.isWhitespace }) else {
                throw ShareCoreError.invalidTarget("'\(text)' needs an id after '\(prefix)'")
            }
            return ShareTarget(kind: kind, id: id, displayPath: text)
        }
        return nil
    }
}
