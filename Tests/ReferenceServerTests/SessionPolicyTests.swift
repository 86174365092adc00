import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Who sees which audit records, how long a child session lives, and the
/// throttling of failed logins, against a real `share-server` process.
@Suite("reference server: audit scope, child lifetimes, login throttling")
struct SessionPolicyTests {
    // MARK: listAudit

    @Test(
        "listAudit answers the caller's own records, from all of their sessions, and nobody else's",
        arguments: ServerEngine.allCases)
    func auditIsScoped(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let family = try #require(alex.sessionID)
        try await reuseRefreshToken(alex)
        let sam = try await TestClient.demo("sam", on: server)
        let samAudit = try await sam.send("GET", "/api/v1/audit")
        #expect(samAudit.status == 200)
        #expect(items(samAudit).isEmpty, "\(samAudit.text)")
        #expect(items(try await sam.send("GET", "/api/v1/audit?kind=refresh_reuse")).isEmpty)

        // Alex, in a new session, sees the record of the ended family.
        let again = try await TestClient.demo("alex", on: server)
        let own = items(try await again.send("GET", "/api/v1/audit?kind=refresh_reuse"))
        #expect(own.count == 1)
        #expect(own.first?["session_id"] as? String == family && own.first?["family_id"] as? String == family)

        // Sam's own reuse is sam's alone.
        try await reuseRefreshToken(sam)
        let samAgain = try await TestClient.demo("sam", on: server)
        let samOwn = items(try await samAgain.send("GET", "/api/v1/audit?kind=refresh_reuse"))
        #expect(samOwn.count == 1 && samOwn.first?["family_id"] as? String != family)
        #expect(items(try await again.send("GET", "/api/v1/audit?kind=refresh_reuse")).count == 1)
    }

    // MARK: Child sessions

    @Test(
        "a child lives no longer than its parent: once the parent's refresh token expired, the child is revoked",
        arguments: ServerEngine.allCases)
    func childEndsWithParentExpiry(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(
            engine,
            seed: UploadFlow.seed(extra: ["tokens": ["access_ttl_seconds": 300, "refresh_ttl_seconds": 6]]))
        defer { server.stop() }
        let app = try await UploadFlow.client(server, "alex")
        let child = try await makeChild(app, server)
        // The child rotates every half second, so its own refresh token
        // always outlives the parent's, which is never refreshed and expires
        // 6 s after login. Only the parent's end can stop the child.
        let deadline = Date().addingTimeInterval(30)
        var answer: TestClient.Response
        repeat {
            answer = try await child.send(
                "POST", "/api/v1/auth/refresh", json: ["refresh_token": child.refreshToken ?? ""], token: .some(nil))
            if answer.status == 200 {
                child.adopt(answer)
                try await Task.sleep(for: .milliseconds(500))
            }
        } while answer.status == 200 && Date() < deadline
        #expect(answer.status == 401, "the child still refreshes 24 s after its parent expired")
        #expect(answer.code == "session_revoked")
        let parent = try await app.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": app.refreshToken ?? ""], token: .some(nil))
        #expect(parent.code == "token_expired")
        // The child's last access token (its lifetime is 300 s) is refused too.
        let resource = try await child.send("GET", "/api/v1/spaces")
        #expect(resource.status == 401)
        #expect(resource.code == "session_revoked")
    }

    @Test("a child whose parent was revoked can neither refresh nor call resources", arguments: ServerEngine.allCases)
    func childEndsWithParentRevocation(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let app = try await TestClient.demo("alex", on: server)
        let child = try await makeChild(app, server)
        #expect(try await app.send("POST", "/api/v1/auth/logout").status == 204)
        let refreshed = try await child.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": child.refreshToken ?? ""], token: .some(nil))
        #expect(refreshed.code == "session_revoked")
        #expect(try await child.send("GET", "/api/v1/spaces").code == "session_revoked")
    }

    // MARK: Login throttling

    @Test(
        "failed logins for one user are throttled: 429 login_throttled with Retry-After, audited, not forever",
        arguments: ServerEngine.allCases)
    func throttlePerUser(engine: ServerEngine) async throws {
        // The default thresholds, with blocks of seconds rather than one: a
        // login that is slow on a loaded machine must not outlast the block.
        let alex = UploadFlow.passwords["alex"] ?? ""
        let server = try await ServerProcess.start(
            engine,
            seed: UploadFlow.seed(extra: ["login_throttle": ["base_delay_seconds": 5, "max_delay_seconds": 10]]))
        defer { server.stop() }
        let attacker = try TestClient(origin: server.origin)
        var statuses: [Int] = []
        var throttled: TestClient.Response?
        for _ in 0..<200 {
            let answer = try await attacker.login("alex", "wrong-password")
            statuses.append(answer.status)
            if answer.status == 429 {
                throttled = answer
                break
            }
        }
        // The default failures_per_user is 10: the tenth failure blocks for 5 s, the
        // eleventh (should the clock's second turn first) for 10 s.
        #expect((11...12).contains(statuses.count) && statuses.dropLast().allSatisfy { $0 == 401 }, "\(statuses)")
        let refusal = try #require(throttled)
        #expect(refusal.code == "login_throttled")
        #expect(refusal.headers["content-type"] == "application/problem+json")
        let wait = try #require(Int(refusal.headers["retry-after"] ?? ""))
        #expect((1...300).contains(wait))
        // The right password from the same address waits too: the password is not even checked.
        #expect(try await TestClient(origin: server.origin).login("alex", alex).status == 429)

        // Another address that never failed for alex is not locked out.
        let other = try rawLogin(server, from: "127.0.0.2", "alex", alex)
        #expect(other.status == 201, "\(other.body)")

        // The block ends after Retry-After; the owner logs in and sees the record.
        try await Task.sleep(for: .seconds(wait) + .milliseconds(200))
        let owner = try TestClient(origin: server.origin)
        #expect(try await owner.login("alex", alex).status == 201)
        let audit = items(try await owner.send("GET", "/api/v1/audit?kind=login_throttled"))
        #expect(!audit.isEmpty)
        #expect(audit.first?["session_id"] is NSNull)
        // Others do not.
        let sam = try TestClient(origin: server.origin)
        #expect(try await sam.login("sam", UploadFlow.passwords["sam"] ?? "").status == 201)
        #expect(items(try await sam.send("GET", "/api/v1/audit?kind=login_throttled")).isEmpty)
    }

    @Test(
        "failed logins from one address are throttled for every username; other addresses are not",
        arguments: ServerEngine.allCases)
    func throttlePerAddress(engine: ServerEngine) async throws {
        let seed = UploadFlow.seed(extra: [
            "login_throttle": [
                "failures_per_address": 5, "failures_per_user": 1000, "base_delay_seconds": 60,
                "max_delay_seconds": 120,
            ]
        ])
        let server = try await ServerProcess.start(engine, seed: seed)
        defer { server.stop() }
        var statuses: [Int] = []
        for n in 0..<6 {
            statuses.append(try rawLogin(server, from: "127.0.0.3", "guess\(n)", "wrong-password").status)
        }
        #expect(statuses == [401, 401, 401, 401, 401, 429])
        let refused = try rawLogin(server, from: "127.0.0.3", "alex", UploadFlow.passwords["alex"] ?? "")
        #expect(refused.status == 429)
        #expect(refused.body.contains("login_throttled"))
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 > 50)
        let elsewhere = try rawLogin(server, from: "127.0.0.4", "alex", UploadFlow.passwords["alex"] ?? "")
        #expect(elsewhere.status == 201, "\(elsewhere.body)")
    }

    @Test(
        "the delay doubles with each failure past the threshold, up to max_delay_seconds",
        arguments: ServerEngine.allCases)
    func throttleDelays(engine: ServerEngine) async throws {
        let seed = UploadFlow.seed(extra: [
            "login_throttle": [
                "failures_per_user": 2, "base_delay_seconds": 2, "max_delay_seconds": 4, "window_seconds": 300,
            ]
        ])
        let server = try await ServerProcess.start(engine, seed: seed)
        defer { server.stop() }
        let client = try TestClient(origin: server.origin)
        var waits: [Int] = []
        for _ in 0..<4 {
            var answer = try await client.login("robin", "wrong-password")
            // Blocks of seconds, not milliseconds: a login that is slow on a
            // loaded machine must not outlast the block it is meant to meet.
            for _ in 0..<5 where answer.status == 401 { answer = try await client.login("robin", "wrong-password") }
            try #require(answer.status == 429)
            let wait = Int(answer.headers["retry-after"] ?? "") ?? 0
            waits.append(wait)
            try await Task.sleep(for: .seconds(wait) + .milliseconds(100))
        }
        // 2 s after the 2nd failure, then 4 s, capped at 4 s (Retry-After counts
        // whole seconds, so a turn of the clock's second may make it one less).
        #expect(waits.allSatisfy { (1...4).contains($0) } && waits.contains { $0 >= 3 }, "\(waits)")
        #expect(try await client.login("robin", UploadFlow.passwords["robin"] ?? "").status == 201)
    }

    @Test(
        "out-of-range throttle and quota settings stop the server with a message naming the member")
    func settingsAreChecked() async throws {
        for (extra, member) in [
            (["login_throttle": ["failures_per_user": 0]], "failures_per_user"),
            (["login_throttle": ["max_delay_seconds": 100_000]], "max_delay_seconds"),
            (["login_throttle": ["window_seconds": -1]], "window_seconds"),
        ] as [([String: Any], String)] {
            await expectRefused(UploadFlow.seed(extra: extra), naming: member)
        }
        var seed = UploadFlow.seed(maxBytes: 8 << 20)
        seed["limits"] = ["file_max_upload_bytes": 8 << 20, "upload_pending_bytes_per_user": 1 << 20]
        await expectRefused(seed, naming: "upload_pending_bytes_per_user")
    }

    private func expectRefused(_ seed: [String: Any], naming member: String) async {
        nonisolated(unsafe) let seed = seed
        do {
            // The seed is checked before the database is opened: one engine is enough.
            try await offPool { try ServerProcess(seed: seed).stop() }
            Issue.record("the server started with an out-of-range \(member)")
        } catch {
            #expect("\(error)".contains(member), "\(error)")
        }
    }

    // MARK: Helpers

    private func items(_ response: TestClient.Response) -> [[String: Any]] {
        response.object["items"] as? [[String: Any]] ?? []
    }

    /// Refreshes once, then presents the spent refresh token again (reuse).
    private func reuseRefreshToken(_ client: TestClient) async throws {
        let spent = try #require(client.refreshToken)
        let first = try await client.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": spent], token: .some(nil))
        #expect(first.status == 200)
        let again = try await client.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": spent], token: .some(nil))
        #expect(again.code == "refresh_reuse")
    }

    /// A share_ext child of `app`'s session, as a client with the same key.
    private func makeChild(_ app: TestClient, _ server: ServerProcess) async throws -> TestClient {
        let created = try await app.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"])
        #expect(created.status == 201)
        let child = try TestClient(origin: server.origin, key: app.key)
        child.adopt(created)
        return child
    }

    /// login from another client address, with a fresh key's proof.
    private func rawLogin(_ server: ServerProcess, from source: String, _ username: String, _ password: String) throws
        -> SourceAddressClient.Answer
    {
        try SourceAddressClient.login(server, from: source, username, password)
    }
}
