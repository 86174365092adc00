public import ShareKitWireContract

/// A space of listSpaces (`GET /api/v1/spaces`) with its channels: the
/// wire contract's type (every member required, as before).
public typealias SpaceAnswer = SpaceBody

extension SpaceBody {
    /// A channel of a space, under the name this interface has always given it.
    public typealias Channel = ChannelBody
}

/// A hit of searchThreadTitles (`GET /api/v1/threads/search`): the wire
/// contract's type (every member required, as before).
public typealias ThreadHitAnswer = ThreadSearchResult

/// The part of a listMessages page (`GET /api/v1/threads/{id}/messages`)
/// a target lookup reads: the channel of the thread's messages. A tolerant
/// reading of the contract's ``ShareKitWireContract/MessageList``
/// (docs/adr/0025-shared-wire-contract.md).
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
