public import ShareKitCore

/// A place a share can go, as search and resolution find it: the
/// ``ShareKitCore/ShareTarget`` plus what a person needs to choose it (the
/// space, the channel, the thread title) and whether they may write there.
///
/// The target's display path is built by ``displayPath(space:channel:thread:kind:)``
/// so that every program shows, and ``TargetDirectory/resolve(_:)`` accepts,
/// the same text.
public struct TargetCandidate: Hashable, Sendable, CustomStringConvertible {
    /// The target, with its display path.
    public var target: ShareTarget
    /// Whether the person may write there; the server still decides on send.
    public var canWrite: Bool
    /// The name of the space that holds the channel.
    public var spaceName: String
    /// The id of the channel (for a thread: the channel that holds it).
    public var channelID: String
    /// The channel's name.
    public var channelName: String
    /// The thread's title, for ``ShareKitCore/ShareTarget/Kind/thread`` targets only.
    public var threadTitle: String?

    /// Makes a candidate; the target's display path is derived from the names.
    /// - Parameters:
    ///   - kind: thread, channel (chat timeline) or new post (forum).
    ///   - id: the thread id, or the channel id for a channel or new post.
    ///   - canWrite: whether the person may write there.
    ///   - spaceName: the space's name.
    ///   - channelID: the channel's id.
    ///   - channelName: the channel's name.
    ///   - threadTitle: the thread's title (threads only).
    public init(
        kind: ShareTarget.Kind, id: String, canWrite: Bool, spaceName: String, channelID: String,
        channelName: String, threadTitle: String? = nil
    ) {
        let path = Self.displayPath(space: spaceName, channel: channelName, thread: threadTitle, kind: kind)
        self.target = ShareTarget(kind: kind, id: id, displayPath: path)
        self.canWrite = canWrite
        self.spaceName = spaceName
        self.channelID = channelID
        self.channelName = channelName
        self.threadTitle = kind == .thread ? threadTitle : nil
    }

    /// The target's kind.
    public var kind: ShareTarget.Kind { target.kind }

    /// The display path and, when the person may not write there, a note saying so.
    public var description: String { canWrite ? target.displayPath : "\(target.displayPath) (read only)" }

    /// The words that stand for a new post in a display path.
    public static let newPostComponent = "new post"
    /// What separates the parts of a display path.
    public static let separator = " > "

    /// The display path a person sees and may type: `space > channel` for a
    /// channel, `space > channel > thread title` for a thread and
    /// `space > channel > new post` for a new post in a forum.
    /// - Parameters:
    ///   - space: the space's name.
    ///   - channel: the channel's name.
    ///   - thread: the thread's title (threads only).
    ///   - kind: the target's kind.
    /// - Returns: the path.
    public static func displayPath(space: String, channel: String, thread: String?, kind: ShareTarget.Kind) -> String {
        switch kind {
        case .channel: return space + separator + channel
        case .newPost: return space + separator + channel + separator + newPostComponent
        case .thread: return space + separator + channel + separator + (thread ?? "")
        }
    }
}
