/// A space of listSpaces (`GET /api/v1/spaces`) with its channels.
public struct SpaceAnswer: Decodable, Hashable, Sendable {
    /// A channel of a space.
    public struct Channel: Decodable, Hashable, Sendable {
        /// The channel's id.
        public var id: String
        /// Its name.
        public var name: String
        /// `chat` or `forum`.
        public var kind: String
        /// Whether the person may post in it.
        public var canWrite: Bool

        enum CodingKeys: String, CodingKey {
            case id, name, kind
            case canWrite = "can_write"
        }
    }

    /// The space's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Its channels the person can see.
    public var channels: [Channel]
}

/// A hit of searchThreadTitles (`GET /api/v1/threads/search`).
public struct ThreadHitAnswer: Decodable, Hashable, Sendable {
    /// The thread's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its channel's id.
    public var channelID: String
    /// Its channel's name.
    public var channelName: String
    /// Its space's name.
    public var spaceName: String
    /// Whether the person may post in it.
    public var canWrite: Bool

    enum CodingKeys: String, CodingKey {
        case id, title
        case channelID = "channel_id"
        case channelName = "channel_name"
        case spaceName = "space_name"
        case canWrite = "can_write"
    }
}

/// The part of a listMessages page (`GET /api/v1/threads/{id}/messages`)
/// a target lookup reads: the channel of the thread's messages.
public struct MessagePageAnswer: Decodable, Hashable, Sendable {
    /// A message of the page.
    public struct Message: Decodable, Hashable, Sendable {
        /// The channel it is in.
        public var channelID: String

        enum CodingKeys: String, CodingKey {
            case channelID = "channel_id"
        }
    }

    /// The messages.
    public var messages: [Message]
}
