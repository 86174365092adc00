import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Two real `share-server` processes serving one database, one uploads
/// folder and one public origin, the way a deployment runs them behind a
/// load balancer: every guarantee of the wire contract holds whichever
/// process a request reaches (docs/deployment.md, "What is shared and what
/// is per process").
@Suite("reference server: two processes on one database")
struct CrossProcessTests {
    // MARK: DPoP

    @Test("a proof accepted by one process is refused as a replay by the other", arguments: ServerEngine.allCases)
    func replayAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let alex = try await pair.client("alex", on: pair.first)
        let path = "/api/v1/spaces"
        let proof = try alex.signer.makeProof(
            method: "GET", url: ServerPair.publicOrigin + path, accessToken: alex.accessToken, nonce: nil)
        let accepted = try await alex.send("GET", path, headers: ["DPoP": proof], proof: false)
        #expect(accepted.status == 200, "\(accepted.text)")

        alex.origin = pair.second.origin
        let replayed = try await alex.send("GET", path, headers: ["DPoP": proof], proof: false)
        #expect(replayed.status == 401)
        #expect(replayed.code == "invalid_dpop_proof", "\(replayed.text)")
        // A fresh proof for the same request is fine there: the refusal was the replay.
        #expect(try await alex.send("GET", path).status == 200)
    }

    @Test(
        "proofs are checked against the public origin: one made for a process's own address is refused",
        arguments: ServerEngine.allCases)
    func publicOriginIsChecked(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let alex = try await pair.client("alex", on: pair.first)
        #expect(try await alex.send("GET", "/api/v1/spaces").status == 200)
        alex.proofOrigin = nil
        let own = try await alex.send("GET", "/api/v1/spaces")
        #expect(own.status == 401)
        #expect(own.code == "invalid_dpop_proof", "\(own.text)")
    }

    @Test(
        "one proof sent to both processes at once is accepted once; the other is a replay",
        arguments: ServerEngine.allCases)
    func concurrentReplay(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let (alex, other) = try await pair.device("alex")
        for round in 0..<3 {
            let path = "/api/v1/channels/c1/messages"
            let body = try JSONSerialization.data(withJSONObject: [
                "client_msg_id": UUID().uuidString.lowercased(), "text": "race \(round)", "attachments": [String](),
            ])
            let proof = try alex.signer.makeProof(
                method: "POST", url: ServerPair.publicOrigin + path, accessToken: alex.accessToken, nonce: nil)
            let headers = ["DPoP": proof, "Content-Type": "application/json"]
            async let one = alex.send("POST", path, body: body, headers: headers, proof: false)
            async let two = other.send("POST", path, body: body, headers: headers, proof: false)
            let answers = try await [one, two]
            #expect(answers.map(\.status).sorted() == [201, 401], "\(answers.map(\.text))")
            #expect(answers.first { $0.status == 401 }?.code == "invalid_dpop_proof")
        }
    }

    @Test(
        "a nonce handed out by one process is accepted by the other; a made-up one is not",
        arguments: ServerEngine.allCases)
    func nonceAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine, seed: UploadFlow.seed(extra: ["dpop": ["require_nonce": true]]))
        defer { pair.stop() }
        // The login is challenged once by the first process and carries its nonce.
        let alex = try await pair.client("alex", on: pair.first)
        let fromFirst = try #require(alex.nonce)

        alex.origin = pair.second.origin
        let answer = try await alex.send("GET", "/api/v1/spaces", retryNonce: false)
        #expect(answer.status == 200, "the second process refused the first one's nonce: \(answer.text)")
        #expect(answer.headers["dpop-nonce"] != nil)

        alex.nonce = fromFirst + "x"
        let madeUp = try await alex.send("GET", "/api/v1/spaces", retryNonce: false)
        #expect(madeUp.status == 401)
        #expect(madeUp.code == "use_dpop_nonce")
    }

    // MARK: Refresh rotation

    @Test(
        "a refresh on one process and a reuse of the old token on the other revokes the family",
        arguments: ServerEngine.allCases)
    func reuseAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let alex = try await pair.client("alex", on: pair.first)
        let spent = try #require(alex.refreshToken)
        let rotated = try await refresh(alex, spent)
        #expect(rotated.status == 200, "\(rotated.text)")
        alex.adopt(rotated)

        let elsewhere = try alex.twin(on: pair.second)
        let reuse = try await refresh(elsewhere, spent)
        #expect(reuse.status == 401)
        #expect(reuse.code == "refresh_reuse", "\(reuse.text)")
        // The pair the first process handed out is dead too, on either process.
        #expect(try await alex.send("GET", "/api/v1/spaces").code == "session_revoked")
        #expect(try await alex.twin(on: pair.second).send("GET", "/api/v1/spaces").code == "session_revoked")
    }

    @Test(
        "two refreshes of one pair sent to both processes at once: one rotation, the other is reuse",
        arguments: ServerEngine.allCases)
    func concurrentRefresh(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        for _ in 0..<3 {
            let alex = try await pair.client("alex", on: pair.first)
            let token = try #require(alex.refreshToken)
            let other = try alex.twin(on: pair.second)
            async let one = refresh(alex, token)
            async let two = refresh(other, token)
            let answers = try await [one, two]
            #expect(answers.map(\.status).sorted() == [200, 401], "\(answers.map(\.text))")
            #expect(answers.first { $0.status == 401 }?.code == "refresh_reuse")
        }
        // Each race wrote exactly one reuse record: no pair was rotated twice.
        let auditor = try await pair.client("alex", on: pair.second)
        let audit = try await auditor.send("GET", "/api/v1/audit?kind=refresh_reuse")
        #expect((audit.object["items"] as? [Any])?.count == 3, "\(audit.text)")
    }

    // MARK: Idempotency

    @Test(
        "the same message sent to both processes at once is stored once; the other answer is the replay",
        arguments: ServerEngine.allCases)
    func idempotencyAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let (alex, other) = try await pair.device("alex")
        var keys: [String] = []
        for round in 0..<3 {
            let key = UUID().uuidString.lowercased()
            keys.append(key)
            async let one = UploadFlow.message(alex, "/api/v1/channels/c1/messages", id: key, text: "once \(round)")
            async let two = UploadFlow.message(other, "/api/v1/channels/c1/messages", id: key, text: "once \(round)")
            let answers = try await [one, two]
            #expect(answers.map(\.status).sorted() == [200, 201], "\(answers.map(\.text))")
            let replay = try #require(answers.first { $0.status == 200 })
            #expect(replay.headers["idempotent-replayed"] == "true")
            let messages = answers.map { $0.object["message"] as? [String: Any] ?? [:] }
            #expect(messages[0]["id"] as? String != nil)
            #expect(messages[0]["id"] as? String == messages[1]["id"] as? String)
            #expect(messages[0]["created_at"] as? String == messages[1]["created_at"] as? String)
        }
        let listed = try await alex.send("GET", "/api/v1/channels/c1/messages")
        let stored = (listed.object["messages"] as? [[String: Any]] ?? []).compactMap { $0["client_msg_id"] as? String }
        for key in keys { #expect(stored.filter { $0 == key }.count == 1, "\(key) in \(stored)") }
    }

    // MARK: Uploads

    @Test(
        "parts sent to either process, completion on the other, the file attached on the first",
        arguments: ServerEngine.allCases)
    func uploadAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let (alex, other) = try await pair.device("alex")
        let data = UploadFlow.bytes(2500, seed: 7)
        let created = try await UploadFlow.create(alex, data)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.object["upload_id"] as? String)
        #expect(created.object["parts_count"] as? Int == 3)
        for (n, client) in [(1, alex), (2, other), (3, alex)] {
            let sent = try await UploadFlow.put(client, id, n, UploadFlow.part(data, n, partSize: 1024))
            #expect(sent.status == 200, "part \(n): \(sent.text)")
        }
        #expect(try await UploadFlow.receivedParts(other, id) == [1, 2, 3])
        let done = try await other.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200, "\(done.text)")
        #expect(done.object["upload_state"] as? String == "complete")
        #expect(FileManager.default.fileExists(atPath: pair.uploads.file("\(id)/part-2")))
        let posted = try await UploadFlow.message(alex, "/api/v1/channels/c1/messages", attachments: [id])
        #expect(posted.status == 201, "\(posted.text)")
    }

    // MARK: Events

    @Test("a long poll on one process returns the event another process wrote", arguments: ServerEngine.allCases)
    func longPollAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let phone = try await pair.client("alex", on: pair.second)
        let laptop = try await pair.client("alex", on: pair.first)
        let start = try await EventFeed.poll(phone, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)

        async let polled = EventFeed.poll(phone, after: cursor, wait: 20)
        let patch = try await laptop.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "names"]])
        #expect(patch.status == 200)
        let answer = try await polled
        #expect(answer.status == 200)
        #expect(EventFeed.events(answer).map { $0["type"] as? String } == ["settings.changed"])
    }

    @Test(
        "events written by both processes at once: every process reads one complete feed in order",
        arguments: ServerEngine.allCases)
    func feedAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let (alex, other) = try await pair.device("alex")
        let posted = try await UploadFlow.message(alex, "/api/v1/channels/c1/messages")
        let messageID = try #require((posted.object["message"] as? [String: Any])?["id"] as? String)
        let start = try await EventFeed.poll(alex, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)

        let nids = try await withThrowingTaskGroup(of: String?.self) { group in
            for n in 0..<16 {
                let client = n % 2 == 0 ? alex : other
                group.addTask {
                    let sent = try await client.send("POST", "/api/v1/push/test", json: ["message_id": messageID])
                    return sent.status == 202 ? sent.object["nid"] as? String : nil
                }
            }
            var nids: [String?] = []
            for try await nid in group { nids.append(nid) }
            return nids
        }
        #expect(nids.allSatisfy { $0 != nil }, "\(nids)")
        var feeds: [[[String: Any]]] = []
        for client in [alex, other] {
            let answer = try await EventFeed.poll(client, after: cursor, wait: 0)
            feeds.append(EventFeed.events(answer))
        }
        for feed in feeds {
            let ids = feed.compactMap { ($0["id"] as? String).flatMap { Int($0) } }
            #expect(ids.count == 16 && ids == ids.sorted() && Set(ids).count == 16, "\(ids)")
            let bodies = feed.compactMap { ($0["payload"] as? [String: Any])?["b"] as? [String: Any] }
            #expect(Set(bodies.compactMap { $0["nid"] as? String }) == Set(nids.compactMap { $0 }))
            // Every process names the deployment's one instance, not its own address.
            #expect(Set(bodies.compactMap { $0["i"] as? String }) == [ServerPair.publicHost])
        }
        #expect(feeds[0].map { $0["id"] as? String } == feeds[1].map { $0["id"] as? String })
    }

    // MARK: Throttling and quotas

    @Test("failed logins spread over both processes are counted together", arguments: ServerEngine.allCases)
    func throttleAcrossProcesses(engine: ServerEngine) async throws {
        let seed = UploadFlow.seed(extra: [
            "login_throttle": [
                "failures_per_user": 4, "failures_per_address": 1000, "base_delay_seconds": 60,
                "max_delay_seconds": 120,
            ]
        ])
        let pair = try await ServerPair(engine, seed: seed)
        defer { pair.stop() }
        var statuses: [Int] = []
        for n in 0..<5 {
            let attacker = try pair.anonymous(on: n % 2 == 0 ? pair.first : pair.second)
            statuses.append(try await attacker.login("alex", "wrong-password").status)
        }
        #expect(statuses == [401, 401, 401, 401, 429])
        let owner = try pair.anonymous(on: pair.first)
        #expect(try await owner.login("alex", UploadFlow.passwords["alex"] ?? "").status == 429)
    }

    @Test("the quota of unfinished uploads counts uploads made on either process", arguments: ServerEngine.allCases)
    func quotaAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(
            engine, seed: UploadFlow.seed(maxBytes: 2000).merging(limits: ["upload_pending_bytes_per_user": 3000]))
        defer { pair.stop() }
        let (alex, other) = try await pair.device("alex")
        #expect(try await UploadFlow.create(alex, UploadFlow.bytes(2000, seed: 1)).status == 201)
        let refused = try await UploadFlow.create(other, UploadFlow.bytes(2000, seed: 2))
        #expect(refused.status == 429)
        #expect(refused.code == "upload_quota_exceeded", "\(refused.text)")
    }

    // MARK: Start-up

    @Test(
        "two processes started at once on a new database both migrate, seed and serve the same instance",
        arguments: ServerEngine.allCases)
    func startTogether(engine: ServerEngine) async throws {
        guard ServerEngine.selected.contains(engine) else {
            try Test.cancel("skipped: \(engine) is not in SHAREKIT_TEST_ENGINES")
        }
        let uploads = try TemporaryDirectory(prefix: "shared-uploads")
        let first = try TemporaryDirectory(prefix: "share-server")
        var postgres: (server: TemporaryPostgres, database: String)?
        let database: String
        switch engine {
        case .sqlite:
            database = first.file("server.db")
        case .postgresql:
            do {
                let server = try TemporaryPostgres.shared()
                let name = try server.createDatabase()
                postgres = (server, name)
                database = server.connectionURI(database: name)
            } catch let unavailable as TemporaryPostgres.Unavailable {
                try Test.cancel("skipped on PostgreSQL: \(unavailable)")
            }
        }
        let arguments = ServerPair.arguments(uploads)
        let servers = try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            group.addTask {
                try await ServerProcess.start(engine, extraArguments: arguments, directory: first, database: database)
            }
            group.addTask { try await ServerProcess.start(engine, extraArguments: arguments, database: database) }
            var servers: [ServerProcess] = []
            for try await server in group { servers.append(server) }
            return servers
        }
        defer {
            for server in servers { server.stop() }
            uploads.remove()
            if let postgres { try? postgres.server.dropDatabase(postgres.database) }
        }
        var answers: [String] = []
        for server in servers {
            let alex = try TestClient(origin: server.origin)
            alex.proofOrigin = ServerPair.publicOrigin
            #expect(try await alex.login("alex", "alex-demo-pass").status == 201)
            let spaces = try await alex.send("GET", "/api/v1/spaces")
            #expect(spaces.status == 200)
            answers.append(spaces.text)
        }
        #expect(answers.count == 2 && answers[0] == answers[1], "\(answers)")
    }

    // MARK: Helpers

    /// refreshToken with `token`, without `Authorization`.
    private func refresh(_ client: TestClient, _ token: String) async throws -> TestClient.Response {
        try await client.send("POST", "/api/v1/auth/refresh", json: ["refresh_token": token], token: .some(nil))
    }
}

/// Two `share-server` processes on one database (SQLite or PostgreSQL), with one uploads
/// folder and one public origin, started one after the other (the second on
/// an already seeded database), stopped by the test.
struct ServerPair {
    /// The origin both processes are told clients use.
    static let publicOrigin = "https://share.example.test"
    /// Its authority, the instance a push names.
    static let publicHost = "share.example.test"

    let first: ServerProcess
    let second: ServerProcess
    /// The shared uploads folder.
    let uploads: TemporaryDirectory

    /// The options every process of the pair gets.
    static func arguments(_ uploads: TemporaryDirectory) -> [String] {
        ["--uploads", uploads.path, "--public-origin", publicOrigin]
    }

    /// Starts the pair, or cancels the running test (a skip with the
    /// reason) where PostgreSQL cannot run on this machine.
    /// - Parameters:
    ///   - engine: the database both processes share.
    ///   - seed: the instance, ``UploadFlow/seed(partSize:maxBytes:maxAttachments:extra:)`` by default.
    init(_ engine: ServerEngine, seed: [String: Any] = UploadFlow.seed()) async throws {
        uploads = try TemporaryDirectory(prefix: "shared-uploads")
        let arguments = Self.arguments(uploads)
        do {
            first = try await ServerProcess.start(engine, seed: seed, extraArguments: arguments)
        } catch {
            uploads.remove()
            throw error
        }
        do {
            second = try await ServerProcess.start(
                engine, seed: seed, extraArguments: arguments, database: first.databaseArgument)
        } catch {
            first.stop()
            uploads.remove()
            throw error
        }
    }

    /// Stops both processes and removes their files.
    func stop() {
        second.stop()
        first.stop()
        uploads.remove()
    }

    /// A client of `server` that signs for the public origin, not logged in.
    func anonymous(on server: ServerProcess) throws -> TestClient {
        let client = try TestClient(origin: server.origin)
        client.proofOrigin = Self.publicOrigin
        return client
    }

    /// One device of one of the seed's people, logged in on the first
    /// process, as a client of each process (same key, same tokens).
    func device(_ username: String) async throws -> (first: TestClient, second: TestClient) {
        let client = try await client(username, on: first)
        return (client, try client.twin(on: second))
    }

    /// A client of `server` logged in as one of the seed's people.
    func client(_ username: String, on server: ServerProcess) async throws -> TestClient {
        let client = try anonymous(on: server)
        let login = try await client.login(username, UploadFlow.passwords[username] ?? "")
        guard login.status == 201 else { throw ServerProcessError("login \(username): \(login.status) \(login.text)") }
        return client
    }
}

extension TestClient {
    /// The same device (key, tokens, nonce) talking to another server
    /// process: a request to it may run at the same time as one of this client's.
    func twin(on server: ServerProcess) throws -> TestClient {
        let twin = try TestClient(origin: server.origin, key: key)
        twin.proofOrigin = proofOrigin
        twin.accessToken = accessToken
        twin.refreshToken = refreshToken
        twin.sessionID = sessionID
        twin.nonce = nonce
        return twin
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The seed with these members added to its `limits`.
    fileprivate func merging(limits: [String: Any]) -> [String: Any] {
        var seed = self
        var merged = seed["limits"] as? [String: Any] ?? [:]
        for (key, value) in limits { merged[key] = value }
        seed["limits"] = merged
        return seed
    }
}
