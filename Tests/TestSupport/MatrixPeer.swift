public import Foundation
public import ShareKitSystemTesting

/// Another person's Matrix client, over plain HTTP from the test: it makes
/// users and rooms on the ``TemporarySynapse`` and reads back what `share`
/// sent (event types, bodies, media bytes), so the tests check what a room
/// member sees rather than what ShareKit says it did.
public struct MatrixPeer {
    public let server: TemporarySynapse
    public let user: String
    public let token: String

    /// Registers a new user (a unique name per call) and logs in.
    /// - Parameters:
    ///   - server: the homeserver.
    ///   - prefix: the start of the user name.
    ///   - password: the password.
    public static func register(on server: TemporarySynapse, prefix: String, password: String) throws -> MatrixPeer {
        let name = prefix + "-" + String(UUID().uuidString.prefix(8)).lowercased()
        let answer = try TemporarySynapse.request(
            "POST", server.origin + "/_matrix/client/v3/register",
            json: [
                "username": name, "password": password, "auth": ["type": "m.login.dummy"],
                "initial_device_display_name": "test peer",
            ])
        guard answer.status == 200, let token = answer.json["access_token"] as? String else {
            throw FixtureFailure("register \(name): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return MatrixPeer(server: server, user: name, token: token)
    }

    /// `@name:localhost`.
    public var userID: String { "@\(user):localhost" }

    /// Calls the client-server API with this user's token.
    public func call(_ method: String, _ path: String, json: Any? = nil) throws -> (status: Int, json: [String: Any]) {
        let answer = try TemporarySynapse.request(method, server.origin + path, token: token, json: json)
        return (answer.status, answer.json)
    }

    /// Creates a room, inviting `invite`; returns its id.
    public func createRoom(
        name: String, alias: String? = nil, invite: [String] = [], encrypted: Bool = false,
        powerLevels: [String: Any]? = nil
    ) throws -> String {
        var body: [String: Any] = ["name": name, "invite": invite, "preset": "private_chat"]
        if let alias { body["room_alias_name"] = alias }
        if encrypted {
            body["initial_state"] = [
                ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
            ]
        }
        if let powerLevels { body["power_level_content_override"] = powerLevels }
        let answer = try call("POST", "/_matrix/client/v3/createRoom", json: body)
        guard answer.status == 200, let room = answer.json["room_id"] as? String else {
            throw FixtureFailure("createRoom: \(answer.status) \(answer.json)")
        }
        return room
    }

    /// Joins a room this user was invited to.
    public func join(_ room: String) throws {
        let answer = try call("POST", "/_matrix/client/v3/join/" + Self.escape(room), json: [:])
        guard answer.status == 200 else { throw FixtureFailure("join: \(answer.status) \(answer.json)") }
    }

    /// Sends an `m.text` (in the thread of `threadRoot` when given); returns its event id.
    public func say(_ body: String, in room: String, threadRoot: String? = nil) throws -> String {
        var content: [String: Any] = ["msgtype": "m.text", "body": body]
        if let threadRoot { content["m.relates_to"] = ["rel_type": "m.thread", "event_id": threadRoot] }
        let answer = try call(
            "PUT", "/_matrix/client/v3/rooms/\(Self.escape(room))/send/m.room.message/\(UUID().uuidString)",
            json: content)
        guard answer.status == 200, let event = answer.json["event_id"] as? String else {
            throw FixtureFailure("send: \(answer.status) \(answer.json)")
        }
        return event
    }

    /// The `m.room.message` events of a room, oldest first.
    public func messages(in room: String) throws -> [[String: Any]] {
        let answer = try call("GET", "/_matrix/client/v3/rooms/\(Self.escape(room))/messages?dir=b&limit=100")
        guard answer.status == 200, let chunk = answer.json["chunk"] as? [[String: Any]] else {
            throw FixtureFailure("messages: \(answer.status) \(answer.json)")
        }
        return chunk.filter { $0["type"] as? String == "m.room.message" }.reversed()
    }

    /// Every `m.room.message` event of a room, oldest first: the whole
    /// timeline, page after page (``messages(in:)`` reads the latest 100).
    public func allMessages(in room: String) throws -> [[String: Any]] {
        var events: [[String: Any]] = []
        var from: String?
        repeat {
            var path = "/_matrix/client/v3/rooms/\(Self.escape(room))/messages?dir=f&limit=100"
            if let from { path += "&from=" + Self.escape(from) }
            let answer = try call("GET", path)
            guard answer.status == 200, let chunk = answer.json["chunk"] as? [[String: Any]] else {
                throw FixtureFailure("messages: \(answer.status) \(answer.json)")
            }
            events += chunk.filter { $0["type"] as? String == "m.room.message" }
            from = chunk.isEmpty ? nil : answer.json["end"] as? String
        } while from != nil
        return events
    }

    /// Downloads a media file (`mxc://server/id`).
    public func download(_ mxc: String) throws -> Data {
        let path = mxc.dropFirst("mxc://".count)
        let answer = try TemporarySynapse.request(
            "GET", server.origin + "/_matrix/client/v1/media/download/" + path, token: token)
        guard answer.status == 200 else { throw FixtureFailure("download \(mxc): \(answer.status)") }
        return answer.body
    }

    /// The display names of this user's devices (a token of the user's own).
    public func deviceNames() throws -> [String] {
        let answer = try call("GET", "/_matrix/client/v3/devices")
        guard answer.status == 200, let devices = answer.json["devices"] as? [[String: Any]] else {
            throw FixtureFailure("devices: \(answer.status) \(answer.json)")
        }
        return devices.compactMap { $0["display_name"] as? String }
    }

    /// A path segment percent-encoded.
    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// Logs an existing user in (a device of the test's own).
    public static func login(on server: TemporarySynapse, user: String, password: String) throws -> MatrixPeer {
        let answer = try TemporarySynapse.request(
            "POST", server.origin + "/_matrix/client/v3/login",
            json: [
                "type": "m.login.password", "identifier": ["type": "m.id.user", "user": user], "password": password,
                "initial_device_display_name": "test peer",
            ])
        guard answer.status == 200, let token = answer.json["access_token"] as? String else {
            throw FixtureFailure("login \(user): \(answer.status) \(answer.json)")
        }
        return MatrixPeer(server: server, user: user, token: token)
    }
}

/// A fixture step failed.
public struct FixtureFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A person with `share` and `share-daemon` on this machine: an app group
/// (keychain and container in a temporary directory) and a Matrix account.
public final class MatrixShareFixture: @unchecked Sendable {
    public let server: TemporarySynapse
    public let home: TemporaryDirectory
    public let environment: [String: String]
    public let password = "matrix-test-pass"
    /// The person's account, seen through a client of the test's own.
    public let person: MatrixPeer

    /// - Parameter server: the homeserver; the test process's shared one unless a test needs its own.
    public init(server: TemporarySynapse? = nil) throws {
        self.server = try server ?? TemporarySynapse.shared()
        home = try TemporaryDirectory(prefix: "share-matrix-test")
        environment = [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home.file("keychain"),
            "SHAREKIT_CONTAINER_DIR": home.file("container"),
        ].merging(TestLocale.english) { $1 }
        person = try MatrixPeer.register(on: self.server, prefix: "alex", password: password)
    }

    /// Runs `share <arguments>`.
    public func share(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share"), arguments, environment: environment, stdin: stdin)
    }

    /// `share login` with the password on standard input.
    public func login(password: String? = nil) throws -> ProcessResult {
        try share(
            ["login", "--server", server.origin, "--user", person.user, "--password-stdin"],
            stdin: (password ?? self.password) + "\n")
    }

    /// The one JSON object a `--json` command printed last.
    public static func json(_ result: ProcessResult) -> [String: Any] {
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// Every file of the keychain directory, read as text (to find tokens in output).
    public func keychainTexts() -> [String] {
        let dir = home.file("keychain")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.compactMap { try? String(contentsOfFile: dir + "/" + $0, encoding: .utf8) }
    }

    public func close() { home.remove() }
}
