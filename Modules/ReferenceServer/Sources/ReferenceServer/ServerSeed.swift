public import Foundation

/// A seed file: the instance a server starts with (docs/protocol.md, "The
/// seed file"). Every member but `users` has a default; loading a
/// seed into an existing database is idempotent.
public struct ServerSeed: Sendable, Equatable {
    /// A person who can log in.
    public struct User: Sendable, Equatable {
        /// The login name.
        public var username: String
        /// The password, only held while the seed is loaded (stored as a PBKDF2 verifier).
        public var password: String
    }

    /// A channel with its readers and writers.
    public struct Channel: Sendable, Equatable {
        /// The channel's id.
        public var id: String
        /// The channel's name.
        public var name: String
        /// `chat` or `forum`.
        public var kind: String
        /// Usernames that can read the channel.
        public var readers: [String]
        /// Usernames that can write to the channel.
        public var writers: [String]
    }

    /// A space and its channels.
    public struct Space: Sendable, Equatable {
        /// The space's id.
        public var id: String
        /// The space's name.
        public var name: String
        /// Its channels.
        public var channels: [Channel]
    }

    /// A thread in a channel.
    public struct Thread: Sendable, Equatable {
        /// The thread's id.
        public var id: String
        /// The channel it belongs to.
        public var channelID: String
        /// Its title.
        public var title: String
    }

    /// The people.
    public var users: [User]
    /// The spaces with their channels.
    public var spaces: [Space]
    /// The threads.
    public var threads: [Thread]
    /// Limits, token lifetimes, DPoP policy and retention.
    public var settings: InstanceSettings

    /// Parses a seed file's JSON.
    /// - Parameter data: the file's bytes.
    /// - Returns: the seed.
    /// - Throws: ``ReferenceServerError/invalidSeed(_:)`` naming the member that is missing, of
    ///   the wrong type or inconsistent with another.
    public static func parse(_ data: Data) throws -> ServerSeed {
        let file: SeedFile
        do {
            file = try JSONDecoder().decode(SeedFile.self, from: data)
        } catch {
            throw ReferenceServerError.invalidSeed(describeDecodingError(error, root: "seed"))
        }
        var spaces: [Space] = []
        for space in file.spaces ?? [] {
            var channels: [Channel] = []
            for channel in space.channels ?? [] {
                let kind = channel.kind ?? "chat"
                guard kind == "chat" || kind == "forum" else {
                    throw ReferenceServerError.invalidSeed("channel \(channel.id): kind must be \"chat\" or \"forum\"")
                }
                channels.append(
                    Channel(
                        id: channel.id, name: channel.name, kind: kind, readers: channel.readers ?? [],
                        writers: channel.writers ?? []))
            }
            spaces.append(Space(id: space.id, name: space.name, channels: channels))
        }
        let seed = ServerSeed(
            users: file.users.map { User(username: $0.username, password: $0.password) },
            spaces: spaces,
            threads: (file.threads ?? []).map { Thread(id: $0.id, channelID: $0.channelId, title: $0.title) },
            settings: try InstanceSettings(file))
        try seed.validate()
        return seed
    }

    /// Checks references between members: channels name known users,
    /// threads name known channels, ids are unique.
    /// - Throws: ``ReferenceServerError/invalidSeed(_:)`` naming the first problem.
    public func validate() throws {
        let usernames = Set(users.map(\.username))
        guard usernames.count == users.count else {
            throw ReferenceServerError.invalidSeed("seed.users has duplicate usernames")
        }
        var channelIDs = Set<String>()
        for space in spaces {
            for channel in space.channels {
                guard channelIDs.insert(channel.id).inserted else {
                    throw ReferenceServerError.invalidSeed("channel id \(channel.id) is used twice")
                }
                for name in channel.readers + channel.writers where !usernames.contains(name) {
                    throw ReferenceServerError.invalidSeed("channel \(channel.id) names unknown user \(name)")
                }
            }
        }
        for thread in threads where !channelIDs.contains(thread.channelID) {
            throw ReferenceServerError.invalidSeed("thread \(thread.id) names unknown channel \(thread.channelID)")
        }
    }
}
