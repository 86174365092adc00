import Foundation
public import ShareKitCore

// The control socket's messages, in one place for both sides: `share`
// (through a ``DaemonControlling``) writes requests and reads answers,
// `share-daemon` (a ``DaemonControlHandling`` behind the socket) reads
// requests and writes answers.
//
// Wire format: the client writes one line of JSON, `{"request":"status"}`;
// the daemon writes one line of JSON and closes. `wake` and `retry` are
// answered `{"ok":true}`, `status` with a ``DaemonStatusReport`` object, and a
// request the daemon does not know with `{"error":"unknown request"}`.
// The previous version spoke plain words (`wake`, `status`, `retry`) and
// answered `ok`, the status object or `unknown request`; the daemon still
// understands those words and answers them as that version did, and the
// client falls back to them when an old daemon does not understand JSON.

/// A request to share-daemon's control socket.
public enum DaemonRequest: String, Sendable, CaseIterable, Codable {
    /// Wake the inbox takeover and the session loop at once (after
    /// `share send --queue`, a kept share or a login); answered with
    /// ``DaemonAcknowledgement``.
    case wake
    /// What the daemon knows about itself; answered with ``DaemonStatusReport``.
    case status
    /// Make every waiting send of the outbox due now and drain it;
    /// answered with ``DaemonAcknowledgement``.
    case retry

    /// The request's line on the wire, without its newline: `{"request":"status"}`.
    public var line: String {
        // Encoding a struct of one enum cannot fail; the fallback keeps the signature total.
        let data = (try? JSONEncoder.controlSocket.encode(DaemonRequestEnvelope(request: self))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A request line as the daemon received it: JSON or a plain word of the
/// previous version, and which request it names.
public struct ReceivedDaemonRequest: Sendable, Equatable {
    /// The longest request line the daemon reads; every known request is far shorter.
    public static let maximumLength = 256

    /// The request, or nil when the line names none this version knows
    /// (unknown word, malformed JSON, an unknown `request`).
    public let request: DaemonRequest?
    /// Whether the line was a plain word (`status`) rather than JSON: such
    /// a client is of the previous version and gets that version's answers.
    public let isPlainWord: Bool

    /// Reads one request line (without its newline).
    /// - Parameter line: the bytes the client sent, decoded as UTF-8.
    public init(parsing line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{") else {
            isPlainWord = true
            request = DaemonRequest(rawValue: trimmed)
            return
        }
        isPlainWord = false
        request = try? JSONDecoder().decode(DaemonRequestEnvelope.self, from: Data(trimmed.utf8)).request
    }
}

/// The object a request travels in: `{"request":"wake"}`.
struct DaemonRequestEnvelope: Codable {
    let request: DaemonRequest
}

/// The answer to `wake` and `retry`: `{"ok":true}`.
public struct DaemonAcknowledgement: Codable, Sendable, Equatable {
    /// Always true in an answer the daemon writes; decoding checks only that it is a Boolean.
    public var ok: Bool

    /// - Parameter ok: whether the request was taken (true).
    public init(ok: Bool = true) { self.ok = ok }
}

/// The daemon's refusal of a request it does not know: `{"error":"unknown request"}`.
public struct DaemonRefusal: Codable, Sendable, Equatable {
    /// Why the request was refused, for a person.
    public var error: String

    /// - Parameter error: why the request was refused.
    public init(error: String) { self.error = error }
}

/// The answer to `status`: what share-daemon knows about itself. The keys
/// are those the daemon has always written (`pid`, `child_session`,
/// `outbox`, ...), so `share status --json` shows the same object as before
/// and a client of the previous version still reads it.
public struct DaemonStatusReport: Codable, Sendable, Equatable {
    /// The outbox's counts by state.
    public struct OutboxCounts: Codable, Sendable, Equatable {
        /// Waiting to be sent (including those waiting for a retry).
        public var pending: Int
        /// Being sent by a daemon right now.
        public var sending: Int
        /// Sent and kept for the record.
        public var sent: Int
        /// Refused by the server: never sent, kept with the reason.
        public var failed: Int

        /// - Parameters:
        ///   - pending: waiting to be sent.
        ///   - sending: being sent now.
        ///   - sent: sent.
        ///   - failed: refused by the server.
        public init(pending: Int, sending: Int, sent: Int, failed: Int) {
            self.pending = pending
            self.sending = sending
            self.sent = sent
            self.failed = failed
        }

        /// Decodes the counts; one outside ``DaemonStatusReport/countRange`` is
        /// refused as not the daemon's.
        /// - Throws: `DecodingError` when a count is missing, not an integer or out of range.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int {
                try DaemonStatusReport.bounded(container.decode(Int.self, forKey: key), key, in: container)
            }
            self.init(
                pending: try count(.pending), sending: try count(.sending), sent: try count(.sent),
                failed: try count(.failed))
        }
    }

    /// A share the server refused, kept in the outbox with the reason.
    public struct FailedShare: Codable, Sendable, Equatable {
        /// The share's client message id.
        public var clientMsgID: String
        /// Where it was to go, as a person reads it (`thread:t1`).
        public var target: String
        /// Why the server refused it.
        public var reason: String

        /// - Parameters:
        ///   - clientMsgID: the share's client message id.
        ///   - target: where it was to go.
        ///   - reason: why the server refused it.
        public init(clientMsgID: String, target: String, reason: String) {
            self.clientMsgID = clientMsgID
            self.target = target
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey {
            case clientMsgID = "client_msg_id"
            case target, reason
        }
    }

    /// The daemon's process id.
    public var pid: Int
    /// The server origin of the account the daemon serves; absent when it
    /// serves none (logged out of the current account).
    public var server: String?
    /// The username of the account the daemon serves, when one is recorded.
    public var user: String?
    /// When the daemon last had an answer from that server (RFC 3339):
    /// a session made or refreshed, the event feed read.
    public var lastReachedAt: String?
    /// The state of the child session, for a person (`ok`, `not logged in`).
    public var childSession: String?
    /// Whether a parent session is stored.
    public var loggedIn: Bool?
    /// How many inbox entries the daemon took over since it started.
    public var takenOver: Int?
    /// The inbox entries set aside at the last takeover, `id: reason`.
    public var quarantined: [String]?
    /// When the last takeover ran (RFC 3339).
    public var lastTakeoverAt: String?
    /// When the outbox was last drained (RFC 3339).
    public var lastPassAt: String?
    /// The last error of a takeover or a drain.
    public var lastError: String?
    /// The outbox's counts, absent when the outbox could not be read.
    public var outbox: OutboxCounts?
    /// The shares the server refused, absent when the outbox could not be read.
    public var failed: [FailedShare]?

    /// - Parameters: every member of the status; only `pid` is required.
    public init(
        pid: Int, server: String? = nil, user: String? = nil, lastReachedAt: String? = nil,
        childSession: String? = nil, loggedIn: Bool? = nil, takenOver: Int? = nil,
        quarantined: [String]? = nil, lastTakeoverAt: String? = nil, lastPassAt: String? = nil,
        lastError: String? = nil, outbox: OutboxCounts? = nil, failed: [FailedShare]? = nil
    ) {
        self.pid = pid
        self.server = server
        self.user = user
        self.lastReachedAt = lastReachedAt
        self.childSession = childSession
        self.loggedIn = loggedIn
        self.takenOver = takenOver
        self.quarantined = quarantined
        self.lastTakeoverAt = lastTakeoverAt
        self.lastPassAt = lastPassAt
        self.lastError = lastError
        self.outbox = outbox
        self.failed = failed
    }

    /// The counts and process ids a daemon can report. Bounding them keeps
    /// arithmetic on counts (pending plus sending) from overflowing on a
    /// hostile answer.
    public static let countRange = 0...Int(Int32.max)

    /// Decodes a status answer strictly: every member present has its type,
    /// `pid` is present and positive, counts are within ``countRange``.
    /// Members the daemon adds in a later version are ignored.
    /// - Throws: `DecodingError` naming the first member that is wrong.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pid = try Self.bounded(container.decode(Int.self, forKey: .pid), .pid, in: container)
        guard pid > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .pid, in: container, debugDescription: "not positive")
        }
        let takenOver = try container.decodeIfPresent(Int.self, forKey: .takenOver).map {
            try Self.bounded($0, .takenOver, in: container)
        }
        self.init(
            pid: pid, server: try container.decodeIfPresent(String.self, forKey: .server),
            user: try container.decodeIfPresent(String.self, forKey: .user),
            lastReachedAt: try container.decodeIfPresent(String.self, forKey: .lastReachedAt),
            childSession: try container.decodeIfPresent(String.self, forKey: .childSession),
            loggedIn: try container.decodeIfPresent(Bool.self, forKey: .loggedIn), takenOver: takenOver,
            quarantined: try container.decodeIfPresent([String].self, forKey: .quarantined),
            lastTakeoverAt: try container.decodeIfPresent(String.self, forKey: .lastTakeoverAt),
            lastPassAt: try container.decodeIfPresent(String.self, forKey: .lastPassAt),
            lastError: try container.decodeIfPresent(String.self, forKey: .lastError),
            outbox: try container.decodeIfPresent(OutboxCounts.self, forKey: .outbox),
            failed: try container.decodeIfPresent([FailedShare].self, forKey: .failed))
    }

    /// A decoded count, refused when outside ``countRange``.
    static func bounded<Key: CodingKey>(_ value: Int, _ key: Key, in container: KeyedDecodingContainer<Key>) throws
        -> Int
    {
        guard countRange.contains(value) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "out of range")
        }
        return value
    }

    enum CodingKeys: String, CodingKey {
        case pid, server, user, quarantined, outbox, failed
        case lastReachedAt = "last_reached_at"
        case childSession = "child_session"
        case loggedIn = "logged_in"
        case takenOver = "taken_over"
        case lastTakeoverAt = "last_takeover_at"
        case lastPassAt = "last_pass_at"
        case lastError = "last_error"
    }

    /// The same status with every string made safe for a terminal
    /// (``TerminalText/neutralised(_:)``): whoever listens on the socket may
    /// have written them.
    public var neutralised: DaemonStatusReport {
        let clean = TerminalText.neutralised
        var copy = self
        copy.server = server.map(clean)
        copy.user = user.map(clean)
        copy.lastReachedAt = lastReachedAt.map(clean)
        copy.childSession = childSession.map(clean)
        copy.quarantined = quarantined?.map(clean)
        copy.lastTakeoverAt = lastTakeoverAt.map(clean)
        copy.lastPassAt = lastPassAt.map(clean)
        copy.lastError = lastError.map(clean)
        copy.failed = failed?.map {
            FailedShare(clientMsgID: clean($0.clientMsgID), target: clean($0.target), reason: clean($0.reason))
        }
        return copy
    }

    /// The status as a JSON value, the object the control socket carries
    /// (`share status --json` and `share inbox list --json` embed it).
    public var jsonValue: JSONValue {
        // Encoding these plain values cannot fail, and the bytes are our own.
        guard let data = try? JSONEncoder.controlSocket.encode(self),
            let value = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return [:] }
        return value
    }
}

/// What the daemon answers one request with, before it is written.
public enum DaemonAnswer: Sendable, Equatable {
    /// `wake` or `retry` was taken.
    case acknowledged
    /// The answer to `status`.
    case status(DaemonStatusReport)
    /// The request was not understood; the text says why.
    case refused(String)

    /// The answer's line on the wire, without its newline.
    /// - Parameter plainWord: whether the request came as a plain word of
    ///   the previous version, which gets that version's answers (`ok`,
    ///   `unknown request`; the status object has not changed).
    public func line(plainWord: Bool) -> String {
        let data: Data?
        switch self {
        case .acknowledged:
            if plainWord { return "ok" }
            data = try? JSONEncoder.controlSocket.encode(DaemonAcknowledgement())
        case .status(let status):
            data = try? JSONEncoder.controlSocket.encode(status)
        case .refused(let reason):
            if plainWord { return reason }
            data = try? JSONEncoder.controlSocket.encode(DaemonRefusal(error: reason))
        }
        return data.map { String(decoding: $0, as: UTF8.self) } ?? #"{"error":"the answer could not be encoded"}"#
    }
}

extension JSONEncoder {
    /// Compact, keys sorted: one stable line per message.
    static var controlSocket: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
