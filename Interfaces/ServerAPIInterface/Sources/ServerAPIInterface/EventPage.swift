public import ShareKitCore
import ShareKitWireContract

/// A page of the event feed (`GET /api/v1/events`): the events after a
/// cursor, oldest first, and the cursor of the next call. A tolerant reading
/// of the contract's ``ShareKitWireContract/EventList``: an event needs only its
/// `type` (docs/adr/0025-shared-wire-contract.md).
public struct EventPage: Decodable, Sendable, Equatable {
    /// One event.
    public struct Event: Decodable, Sendable, Equatable {
        /// `access.changed`, `settings.changed`, `session.revoked`, `push`;
        /// other types are ignored by clients that do not know them.
        public var type: String
        /// `access.changed`: the threads and channels the user lost.
        public var targetIDs: [String]?
        /// `push`: the push payload, passed to the notifier as it came.
        public var payload: JSONValue?
        /// `session.revoked`: the session that was revoked (`ses_…`).
        public var sessionID: String?

        /// Makes an event.
        /// - Parameters:
        ///   - type: the type.
        ///   - targetIDs: the target ids of `access.changed`.
        ///   - payload: the payload of `push`.
        ///   - sessionID: the session of `session.revoked`.
        public init(type: String, targetIDs: [String]? = nil, payload: JSONValue? = nil, sessionID: String? = nil) {
            self.type = type
            self.targetIDs = targetIDs
            self.payload = payload
            self.sessionID = sessionID
        }

        /// Decodes an event; a `session_id` that is not a string counts as absent.
        /// - Throws: `DecodingError` when `type` is missing, or `target_ids`
        ///   or `payload` has the wrong type.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            targetIDs = try container.decodeIfPresent([String].self, forKey: .targetIDs)
            payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
            sessionID = (try? container.decodeIfPresent(String.self, forKey: .sessionID)) ?? nil
        }

        enum CodingKeys: String, CodingKey {
            case type, payload
            case targetIDs = "target_ids"
            case sessionID = "session_id"
        }
    }

    /// The events, oldest first; empty when the wait ended without any.
    public var events: [Event]
    /// The `after` of the next call.
    public var cursor: String

    /// `GET /api/v1/events?wait=W[&after=CURSOR]`.
    /// - Parameters:
    ///   - cursor: the cursor of the previous page, nil for the start.
    ///   - wait: how long the server may hold the call open, in seconds.
    /// - Returns: the request.
    public static func request(after cursor: String?, wait: Int) -> APIRequest {
        APIRequest(.listEvents, query: [("wait", String(wait)), ("after", cursor)])
    }
}
