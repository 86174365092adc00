import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Password guesses and refresh-token replays sent all at once, to the
/// threads of one `share-server` process and to two processes on one
/// database: the throttle and the rotation count per deployment, whatever
/// the order the requests reach the database in (docs/security.md,
/// "Several processes on one database").
@Suite("reference server: guesses and refreshes raced on one deployment")
struct ConcurrentAuthTests {
    /// The throttle these tests log in under: ten failures per user block
    /// for a minute, so no block ends during a test; the address never blocks.
    static var throttle: [String: Any] {
        [
            "login_throttle": [
                "failures_per_user": 10, "failures_per_address": 1000, "base_delay_seconds": 60,
                "max_delay_seconds": 120,
            ]
        ]
    }

    // MARK: Login throttling

    @Test(
        "40 wrong passwords sent at once to two processes: exactly 10 are checked, 30 are throttled",
        arguments: ServerEngine.allCases)
    func guessesAcrossProcesses(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine, seed: UploadFlow.seed(extra: Self.throttle))
        defer { pair.stop() }
        let statuses = try await guess(40) { n in try pair.anonymous(on: n % 2 == 0 ? pair.first : pair.second) }
        #expect(statuses == [401: 10, 429: 30])
        // The owner's right password from the same address waits too: the block holds.
        let owner = try pair.anonymous(on: pair.first)
        #expect(try await owner.login("alex", UploadFlow.passwords["alex"] ?? "").status == 429)
    }

    @Test(
        "30 wrong passwords sent at once to the threads of one process: exactly 10 are checked",
        arguments: ServerEngine.allCases)
    func guessesOnOneProcess(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed(extra: Self.throttle))
        defer { server.stop() }
        // 30: one address may hold at most 32 connections (--max-connections-per-address).
        let statuses = try await guess(30) { _ in try TestClient(origin: server.origin) }
        #expect(statuses == [401: 10, 429: 20])
    }

    @Test(
        "a successful login is not a failure of its address: guesses between the owner's logins still get their count",
        arguments: ServerEngine.allCases)
    func successesDoNotCountForTheAddress(engine: ServerEngine) async throws {
        let seed = UploadFlow.seed(extra: [
            "login_throttle": [
                "failures_per_address": 3, "failures_per_user": 1000, "base_delay_seconds": 60,
                "max_delay_seconds": 120,
            ]
        ])
        let server = try await ServerProcess.start(engine, seed: seed)
        defer { server.stop() }
        let alex = UploadFlow.passwords["alex"] ?? ""
        var statuses: [Int] = []
        statuses.append(try rawLogin(server, "robin", "wrong-password").status)
        for _ in 0..<5 { statuses.append(try rawLogin(server, "alex", alex).status) }
        statuses.append(try rawLogin(server, "sam", "wrong-password").status)
        statuses.append(try rawLogin(server, "alex", alex).status)
        statuses.append(try rawLogin(server, "sam", "wrong-password").status)
        statuses.append(try rawLogin(server, "alex", alex).status)
        // Three failures in all: the address is blocked only now.
        #expect(statuses == [401, 201, 201, 201, 201, 201, 401, 201, 401, 429], "\(statuses)")
    }

    // MARK: Refresh retries

    @Test(
        "a lost refresh answer is retried once; the same token with retry again is reuse and ends the family",
        arguments: ServerEngine.allCases)
    func retryIsAcceptedOnce(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let alex = try await pair.client("alex", on: pair.first)
        let spent = try #require(alex.refreshToken)
        // The rotation commits on the first process; its answer is "lost".
        #expect(try await refresh(alex, spent).status == 200)
        // The retry reaches the second process and gets a pair.
        let elsewhere = try alex.twin(on: pair.second)
        let retried = try await refresh(elsewhere, spent, retry: true)
        #expect(retried.status == 200, "\(retried.text)")
        elsewhere.adopt(retried)
        // The same token with retry once more, on either process: reuse.
        for client in [alex, try alex.twin(on: pair.second)] {
            let replayed = try await refresh(client, spent, retry: true)
            #expect(replayed.status == 401, "\(replayed.text)")
            #expect(replayed.code == "refresh_reuse")
        }
        // The family is over: the pair the retry handed out is dead.
        #expect(try await elsewhere.send("GET", "/api/v1/spaces").code == "session_revoked")
        let auditor = try await pair.client("alex", on: pair.second)
        let retries = try await auditor.send("GET", "/api/v1/audit?kind=refresh_retry")
        #expect((retries.object["items"] as? [Any])?.count == 1, "\(retries.text)")
    }

    @Test(
        "a retry whose answer was lost too is retried with the next number, up to three; a fourth is reuse",
        arguments: ServerEngine.allCases)
    func numberedRetries(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        let alex = try await pair.client("alex", on: pair.first)
        let spent = try #require(alex.refreshToken)
        #expect(try await refresh(alex, spent).status == 200)
        // Three answers lost in a row, on either process: each retry number is taken once.
        for (attempt, client) in zip(1...3, [alex, try alex.twin(on: pair.second), alex]) {
            let retried = try await refresh(client, spent, retry: true, attempt: attempt)
            #expect(retried.status == 200, "retry \(attempt): \(retried.text)")
        }
        let fourth = try await refresh(alex, spent, retry: true, attempt: 4)
        #expect(fourth.code == "refresh_reuse", "\(fourth.text)")
        let auditor = try await pair.client("alex", on: pair.second)
        let retries = try await auditor.send("GET", "/api/v1/audit?kind=refresh_retry")
        #expect((retries.object["items"] as? [Any])?.count == 3, "\(retries.text)")

        // A number already taken is a copy of an earlier request: reuse, the family ends.
        let sam = try await pair.client("alex", on: pair.first)
        let samSpent = try #require(sam.refreshToken)
        #expect(try await refresh(sam, samSpent).status == 200)
        #expect(try await refresh(sam, samSpent, retry: true, attempt: 2).status == 200)
        let copy = try await refresh(try sam.twin(on: pair.second), samSpent, retry: true, attempt: 1)
        #expect(copy.code == "refresh_reuse", "\(copy.text)")

        // Numbers from outside are range-checked: 400, and nothing ends.
        let bob = try await pair.client("alex", on: pair.first)
        let bobSpent = try #require(bob.refreshToken)
        #expect(try await refresh(bob, bobSpent).status == 200)
        for wrong: Any in [0, 101, -1, "2", 1.5] {
            let answer = try await refresh(bob, bobSpent, retry: true, attempt: wrong)
            #expect(answer.status == 400, "\(wrong): \(answer.text)")
        }
        #expect(try await refresh(bob, bobSpent, retry: true, attempt: 1).status == 200)
    }

    @Test(
        "one spent token retried four times at once over two processes: one retry rotates, three are reuse",
        arguments: ServerEngine.allCases)
    func concurrentRetries(engine: ServerEngine) async throws {
        let pair = try await ServerPair(engine)
        defer { pair.stop() }
        for _ in 0..<3 {
            let alex = try await pair.client("alex", on: pair.first)
            let spent = try #require(alex.refreshToken)
            #expect(try await refresh(alex, spent).status == 200)
            // Two requests on each process: threads of one process race, and the processes race.
            let clients = [
                alex, try alex.twin(on: pair.second), try alex.twin(on: pair.first), try alex.twin(on: pair.second),
            ]
            let answers = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                for client in clients { group.addTask { try await refresh(client, spent, retry: true) } }
                var answers: [TestClient.Response] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
            #expect(answers.map(\.status).sorted() == [200, 401, 401, 401], "\(answers.map(\.text))")
            #expect(answers.filter { $0.status == 401 }.allSatisfy { $0.code == "refresh_reuse" })
        }
        let auditor = try await pair.client("alex", on: pair.second)
        let retries = try await auditor.send("GET", "/api/v1/audit?kind=refresh_retry")
        #expect((retries.object["items"] as? [Any])?.count == 3, "\(retries.text)")
    }

    // MARK: Helpers

    /// Sends `count` wrong-password logins for alex at once, each from a new client.
    /// - Returns: how many answers had each status.
    private func guess(_ count: Int, client: (Int) throws -> TestClient) async throws -> [Int: Int] {
        let clients = try (0..<count).map(client)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for attacker in clients {
                group.addTask { try await attacker.login("alex", "wrong-password").status }
            }
            var statuses: [Int: Int] = [:]
            for try await status in group { statuses[status, default: 0] += 1 }
            return statuses
        }
    }

    /// refreshToken with `token` (and `retry: true`, and `retry_attempt`, when asked), without `Authorization`.
    private func refresh(_ client: TestClient, _ token: String, retry: Bool = false, attempt: Any? = nil)
        async throws -> TestClient.Response
    {
        var body: [String: Any] = ["refresh_token": token]
        if retry { body["retry"] = true }
        if let attempt { body["retry_attempt"] = attempt }
        return try await client.send("POST", "/api/v1/auth/refresh", json: body, token: .some(nil))
    }

    /// One login from 127.0.0.5, an address of its own.
    private func rawLogin(_ server: ServerProcess, _ username: String, _ password: String) throws
        -> SourceAddressClient.Answer
    {
        try SourceAddressClient.login(server, from: "127.0.0.5", username, password)
    }
}
