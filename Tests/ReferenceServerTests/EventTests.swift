import Foundation
import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The event long poll and the settings (docs/protocol.md, "Events feed" and
/// "Settings") against a real `share-server` process, including events written by
/// `share-server admin` from another process.
@Suite("reference server: events and settings")
struct EventTests {
    @Test("a long poll returns as soon as an event arrives, well before its wait", arguments: ServerEngine.allCases)
    func longPollWakes(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let phone = try await TestClient.demo("alex", on: server)
        let laptop = try await TestClient.demo("alex", on: server)
        let start = try await EventFeed.poll(phone, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)

        let clock = ContinuousClock()
        let began = clock.now
        async let polled = EventFeed.poll(phone, after: cursor, wait: 20)
        // Another request, from another session of the same user, writes the event.
        let patch = try await laptop.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "names"]])
        #expect(patch.status == 200)
        let answer = try await polled
        let elapsed = clock.now - began

        #expect(answer.status == 200)
        let events = EventFeed.events(answer)
        #expect(events.map { $0["type"] as? String } == ["settings.changed"])
        #expect(elapsed < .seconds(10), "the poll waited \(elapsed) instead of returning with the event")
        let newCursor = try #require(answer.object["cursor"] as? String)
        #expect(newCursor == events.last?["id"] as? String)
        #expect(Int(newCursor)! > Int(cursor)!)
        #expect(events.first?["created_at"] is String)
    }

    @Test(
        "a long poll with nothing to return times out with no events and the same cursor",
        arguments: ServerEngine.allCases)
    func longPollTimesOut(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let start = try await EventFeed.poll(alex, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)

        let clock = ContinuousClock()
        let began = clock.now
        let answer = try await EventFeed.poll(alex, after: cursor, wait: 1)
        let elapsed = clock.now - began
        #expect(answer.status == 200)
        #expect(EventFeed.events(answer).isEmpty)
        #expect(answer.object["cursor"] as? String == cursor)
        #expect(elapsed >= .milliseconds(900), "the poll answered after \(elapsed) instead of waiting")
    }

    @Test(
        "without after the feed starts now (no history); after=0 replays it; bad parameters are 400",
        arguments: ServerEngine.allCases)
    func cursorRules(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        for mode in ["names", "none"] {
            #expect(
                try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": mode]]).status == 200
            )
        }
        let fresh = try await EventFeed.poll(alex, after: nil, wait: 0)
        #expect(fresh.status == 200)
        #expect(EventFeed.events(fresh).isEmpty)
        let history = try await EventFeed.poll(alex, after: "0", wait: 0)
        let replayed = EventFeed.events(history)
        #expect(replayed.map { $0["type"] as? String } == ["settings.changed", "settings.changed"])
        #expect(fresh.object["cursor"] as? String == history.object["cursor"] as? String)

        for query in ["after=abc", "after=-1", "after=%2B5", "after=", "wait=-1", "wait=soon", "wait=1.5"] {
            let bad = try await alex.send("GET", "/api/v1/events?\(query)")
            #expect(bad.status == 400, "\(query) gave \(bad.status)")
            #expect(bad.code == "bad_request")
        }
        #expect(try await alex.send("GET", "/api/v1/events", token: .some(nil)).status == 401)
    }

    @Test("events of one user never reach another", arguments: ServerEngine.allCases)
    func feedsArePerUser(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let sam = try await TestClient.demo("sam", on: server)
        #expect(
            try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "none"]]).status == 200)
        #expect(EventFeed.events(try await EventFeed.poll(sam, after: "0", wait: 0)).isEmpty)
        #expect(EventFeed.events(try await EventFeed.poll(alex, after: "0", wait: 0)).count == 1)
    }

    @Test(
        "admin revoke-write from another process: access.changed arrives, then writing there is 403",
        arguments: ServerEngine.allCases)
    func adminRevokeWrite(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let sam = try await TestClient.demo("sam", on: server)
        #expect(try await EventFeed.createMessage(sam, in: "/api/v1/threads/t1/messages", text: "before").status == 201)
        let start = try await EventFeed.poll(sam, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)

        let clock = ContinuousClock()
        let began = clock.now
        async let polled = EventFeed.poll(sam, after: cursor, wait: 20)
        let admin = try server.admin(["revoke-write", "--user", "sam", "--channel", "c1"])
        #expect(admin.status == 0, "admin failed: \(admin.stderr)")
        let answer = try await polled
        #expect(clock.now - began < .seconds(10))
        let events = EventFeed.events(answer)
        #expect(events.map { $0["type"] as? String } == ["access.changed"])
        let targets = events.first?["target_ids"] as? [String] ?? []
        #expect(Set(targets) == ["c1", "t1", "t2"])

        let thread = try await EventFeed.createMessage(sam, in: "/api/v1/threads/t1/messages", text: "after")
        #expect(thread.status == 403)
        #expect(thread.code == "write_forbidden")
        let channel = try await EventFeed.createMessage(sam, in: "/api/v1/channels/c1/messages", text: "after")
        #expect(channel.status == 403)
        #expect(channel.code == "write_forbidden")
        // Reading stays allowed; the channel shows as read-only.
        #expect(try await sam.send("GET", "/api/v1/threads/t1/messages").status == 200)
        // Message cursors have the events' format: decimal digits only.
        for after in ["%2B5", "-0", "%205", "abc", "", "1234567890123456789"] {
            let bad = try await sam.send("GET", "/api/v1/threads/t1/messages?after=\(after)")
            #expect(bad.status == 400, "after=\(after) gave \(bad.status)")
        }
        #expect(try await sam.send("GET", "/api/v1/threads/t1/messages?after=0").status == 200)
        let spaces = try await sam.send("GET", "/api/v1/spaces").array
        let c1 = spaces.flatMap { $0["channels"] as? [[String: Any]] ?? [] }.first { $0["id"] as? String == "c1" }
        #expect(c1?["can_write"] as? Bool == false)

        // Again: nothing changes, no second event; unknown names fail with a message.
        #expect(try server.admin(["revoke-write", "--user", "sam", "--channel", "c1"]).status == 0)
        #expect(
            EventFeed.events(try await EventFeed.poll(sam, after: answer.object["cursor"] as? String, wait: 0)).isEmpty)
        let unknown = try server.admin(["revoke-write", "--user", "nobody", "--channel", "c1"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("nobody"))
    }

    @Test(
        "admin revoke-session from another process: session.revoked arrives, the session gets 401",
        arguments: ServerEngine.allCases)
    func adminRevokeSession(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let phone = try await TestClient.demo("alex", on: server)
        let laptop = try await TestClient.demo("alex", on: server)
        let child = try await phone.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"])
        #expect(child.status == 201)
        let start = try await EventFeed.poll(laptop, after: nil, wait: 0)
        let cursor = try #require(start.object["cursor"] as? String)
        let phoneSession = try #require(phone.sessionID)

        async let polled = EventFeed.poll(laptop, after: cursor, wait: 20)
        let admin = try server.admin(["revoke-session", "--session", phoneSession])
        #expect(admin.status == 0, "admin failed: \(admin.stderr)")
        let events = EventFeed.events(try await polled)
        #expect(events.allSatisfy { $0["type"] as? String == "session.revoked" })
        #expect(
            Set(events.compactMap { $0["session_id"] as? String })
                == [phoneSession, child.object["session_id"] as? String ?? "?"])

        #expect(try await phone.send("GET", "/api/v1/spaces").code == "session_revoked")
        let childToken = child.object["access_token"] as? String
        #expect(try await phone.send("GET", "/api/v1/spaces", token: .some(childToken)).code == "session_revoked")
        #expect(try await laptop.send("GET", "/api/v1/spaces").status == 200)
        #expect(try server.admin(["revoke-session", "--session", "ses_unknown"]).status != 0)
    }

    @Test(
        "settings: default full, PATCH round trip with settings.changed, validation, unknown members ignored",
        arguments: ServerEngine.allCases)
    func settingsRoundTrip(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let initial = try await alex.send("GET", "/api/v1/settings")
        #expect(initial.status == 200)
        #expect(EventFeed.previewMode(initial) == "full")
        let cursor = try #require(try await EventFeed.poll(alex, after: nil, wait: 0).object["cursor"] as? String)

        let patched = try await alex.send(
            "PATCH", "/api/v1/settings",
            json: ["notify": ["preview_mode": "names", "quiet_hours": "22-7"], "theme": "dark"])
        #expect(patched.status == 200)
        #expect(EventFeed.previewMode(patched) == "names")
        #expect(EventFeed.previewMode(try await alex.send("GET", "/api/v1/settings")) == "names")
        let changed = try await EventFeed.poll(alex, after: cursor, wait: 5)
        #expect(EventFeed.events(changed).map { $0["type"] as? String } == ["settings.changed"])

        // The same value again, or nothing at all, changes nothing and emits nothing.
        #expect(
            try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "names"]]).status == 200)
        #expect(try await alex.send("PATCH", "/api/v1/settings", json: [String: Any]()).status == 200)
        #expect(
            EventFeed.events(try await EventFeed.poll(alex, after: changed.object["cursor"] as? String, wait: 0))
                .isEmpty)

        let wrongValue = try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": "all"]])
        #expect(wrongValue.status == 400)
        let wrongType = try await alex.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": 1]])
        #expect(wrongType.status == 400)
        #expect(EventFeed.previewMode(try await alex.send("GET", "/api/v1/settings")) == "names")
    }
}

extension EventTests {
    @Test(
        "events written at once by the server and by admin processes reach a following poll in order, none skipped",
        arguments: ServerEngine.allCases)
    func orderedAndCompleteAcrossProcesses(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let follower = try await TestClient.demo("alex", on: server)
        let writer = try await TestClient.demo("alex", on: server)
        let messageID = try await Push.message(writer, in: "/api/v1/threads/t1/messages", text: "ping")
        var revoked: [String] = []
        for _ in 0..<6 { revoked.append(try #require(try await TestClient.demo("alex", on: server).sessionID)) }
        let start = try await EventFeed.poll(follower, after: nil, wait: 0)
        let startCursor = try #require(start.object["cursor"] as? String)
        let changes = 16
        let expected = changes + revoked.count

        // The server process writes settings.changed (inside a request's
        // transaction) and push events (a statement of their own) while
        // admin processes write session.revoked, all at once; the follower
        // reads as they commit.
        async let patched: [Int] = {
            var statuses: [Int] = []
            for index in 0..<changes {
                if index % 2 == 0 {
                    let mode = index % 4 == 0 ? "names" : "none"
                    statuses.append(
                        try await writer.send("PATCH", "/api/v1/settings", json: ["notify": ["preview_mode": mode]])
                            .status)
                } else {
                    statuses.append(
                        try await writer.send("POST", "/api/v1/push/test", json: ["message_id": messageID]).status)
                }
            }
            return statuses
        }()
        async let admins = AdminRuns.concurrently(server, revoked.map { ["revoke-session", "--session", $0] })
        var followed: [Int] = []
        var cursor = startCursor
        let deadline = ContinuousClock.now + .seconds(90)
        while followed.count < expected, ContinuousClock.now < deadline {
            let answer = try await EventFeed.poll(follower, after: cursor, wait: 2)
            #expect(answer.status == 200)
            followed += EventFeed.ids(answer)
            cursor = answer.object["cursor"] as? String ?? cursor
        }
        #expect(try await patched.allSatisfy { $0 == 200 || $0 == 202 })
        for result in await admins { #expect(result.status == 0, "\(result.stderr)") }

        let replayed = EventFeed.ids(try await EventFeed.poll(follower, after: startCursor, wait: 0))
        #expect(replayed.count == expected)
        #expect(followed == replayed, "the follower skipped or reordered events")
        #expect(followed == followed.sorted() && Set(followed).count == followed.count)
    }
}

extension EventTests {
    @Test("PostgreSQL: an event committed late by another process is not skipped by a reader that saw a later one")
    func lateCommitIsNotSkipped() async throws {
        let server = try await ServerProcess.start(.postgresql)
        defer { server.stop() }
        let follower = try await TestClient.demo("alex", on: server)
        let writer = try await TestClient.demo("alex", on: server)
        let messageID = try await Push.message(writer, in: "/api/v1/threads/t1/messages", text: "ping")
        var cursor = try #require(try await EventFeed.poll(follower, after: nil, wait: 0).object["cursor"] as? String)

        // Another process (this test) writes an event in a transaction that
        // stays open, as an admin command between its insert and its commit does.
        let holder = try LateEventWriter(uri: server.databaseArgument)
        let late = try await holder.insertAndHold(username: "alex")
        let observer = try PostgresDatabase(connection: server.databaseArgument)
        defer { try? observer.close() }
        async let push = writer.send("POST", "/api/v1/push/test", json: ["message_id": messageID])
        // The server's event either waits for the open transaction (a waiter
        // on the exclusive lock) or is committed before it.
        var seen: [Int] = []
        while true {
            let waiting = try observer.query(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            if try waiting.first?.get("n", as: Int64.self) ?? 0 > 0 { break }
            if try observer.query(
                "SELECT 1 FROM events WHERE username = 'alex' AND type = 'push'"
            ).count > 0 {
                // Committed ahead of the open one: a reader sees it now.
                let early = try await EventFeed.poll(follower, after: cursor, wait: 0)
                seen += EventFeed.ids(early)
                cursor = early.object["cursor"] as? String ?? cursor
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        try await holder.commit()
        #expect(try await push.status == 202)
        let rest = try await EventFeed.poll(follower, after: cursor, wait: 5)
        seen += EventFeed.ids(rest)
        #expect(seen.contains(Int(late)), "the event committed late (\(late)) was skipped: the reader saw \(seen)")
        #expect(seen.count == 2 && seen == seen.sorted(), "\(seen)")
    }
}

extension EventTests {
    @Test("PostgreSQL: of two event writers whose commits are interleaved on purpose, the reader skips neither")
    func interleavedCommitsAreNotSkipped() async throws {
        let server = try await ServerProcess.start(.postgresql)
        defer { server.stop() }
        let follower = try await TestClient.demo("alex", on: server)
        var cursor = try #require(try await EventFeed.poll(follower, after: nil, wait: 0).object["cursor"] as? String)
        let observer = try PostgresDatabase(connection: server.databaseArgument)
        defer { try? observer.close() }

        // The first writer draws its seq and stays open; the second then
        // inserts and, if it can, commits before the first does.
        let first = try LateEventWriter(uri: server.databaseArgument)
        let firstSeq = try await first.insertAndHold(username: "alex")
        let second = try LateEventWriter(uri: server.databaseArgument)
        second.begin(username: "alex")
        let deadline = ContinuousClock.now + .seconds(20)
        var secondWaits = false
        while !second.hasInserted {
            let waiting = try observer.query(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            if try waiting.first?.get("n", as: Int64.self) ?? 0 > 0 {
                secondWaits = true
                break
            }
            #expect(ContinuousClock.now < deadline, "the second writer neither inserted nor waited")
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        var seen: [Int] = []
        if !secondWaits {
            // Its event is in: it commits ahead of the first one's.
            _ = try await second.insertedSeq()
            try await second.commit()
        }
        // The reader looks while the first is still open.
        let early = try await EventFeed.poll(follower, after: cursor, wait: 0)
        seen += EventFeed.ids(early)
        cursor = early.object["cursor"] as? String ?? cursor
        try await first.commit()
        let secondSeq = try await second.insertedSeq()
        if secondWaits { try await second.commit() }
        let rest = try await EventFeed.poll(follower, after: cursor, wait: 5)
        seen += EventFeed.ids(rest)
        #expect(
            seen == [Int(firstSeq), Int(secondSeq)].sorted(),
            "the reader saw \(seen); the writers drew \(firstSeq) and \(secondSeq)")
    }
}

/// A transaction on a server's PostgreSQL database that inserts an event
/// and stays open until ``commit()``, on a thread of its own. It runs as
/// the server's own transactions do (row locks, no deployment-wide lock),
/// with a plain `INSERT`: whatever orders events must hold for any writer.
final class LateEventWriter: @unchecked Sendable {
    private let database: PostgresDatabase
    private let inserted = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var seq: Int64 = 0
    private var failure: (any Error)?
    private var done = false

    init(uri: String) throws {
        // A writer may wait for the other's events lock while the test reads
        // the feed: on a loaded machine, longer than the default 5 s.
        database = try PostgresDatabase(
            connection: uri, configuration: PostgresConfiguration(isolation: .rowLocks, lockTimeout: .seconds(60)))
    }

    /// Whether the insert has returned (or failed); the transaction may still be open.
    var hasInserted: Bool { lock.withLock { done } }

    /// Inserts the event in a new transaction and returns its `seq` while the transaction stays open.
    func insertAndHold(username: String) async throws -> Int64 {
        begin(username: username)
        return try await insertedSeq()
    }

    /// The `seq` of the event, once the insert has returned.
    func insertedSeq() async throws -> Int64 {
        try await offPool { [inserted] in inserted.wait() }
        inserted.signal()
        return try lock.withLock {
            if let failure { throw failure }
            return seq
        }
    }

    /// Starts the transaction and its insert, without waiting for the insert.
    func begin(username: String) {
        Thread.detachNewThread { [self] in
            do {
                try database.transaction {
                    let row = try database.query(
                        """
                        INSERT INTO events (username, type, body, created_at)
                        VALUES (?, 'settings.changed', '{"type":"settings.changed"}', '2026-01-01T00:00:00.000Z')
                        RETURNING seq
                        """, [.text(username)])
                    lock.withLock {
                        seq = (try? row.first?.get("seq", as: Int64.self)) ?? 0
                        done = true
                    }
                    inserted.signal()
                    release.wait()
                }
            } catch {
                lock.withLock {
                    failure = error
                    done = true
                }
                inserted.signal()
            }
            try? database.close()
            finished.signal()
        }
    }

    /// Commits the transaction and waits until it is done.
    func commit() async throws {
        release.signal()
        try await offPool { [finished] in finished.wait() }
        try lock.withLock { if let failure { throw failure } }
    }
}

/// `share-server admin` commands run side by side, each a process of its
/// own, on threads outside Swift's cooperative pool (they block).
enum AdminRuns {
    private final class Results: @unchecked Sendable {
        let lock = NSLock()
        var values: [Int: (status: Int32, stderr: String)] = [:]
    }

    /// Runs every command at once and returns their exit statuses and
    /// standard errors in order (-1 for one that could not be started).
    static func concurrently(_ server: ServerProcess, _ commands: [[String]]) async -> [(
        status: Int32, stderr: String
    )] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let results = Results()
                DispatchQueue.concurrentPerform(iterations: commands.count) { index in
                    let result = try? server.admin(commands[index])
                    results.lock.withLock {
                        results.values[index] = (result?.status ?? -1, result?.stderr ?? "could not start it")
                    }
                }
                continuation.resume(returning: commands.indices.compactMap { results.values[$0] })
            }
        }
    }
}

/// Requests the event and push tests share.
enum EventFeed {
    /// `GET /events` with an optional cursor and a wait in seconds.
    static func poll(_ client: TestClient, after: String?, wait: Int) async throws -> TestClient.Response {
        var query = "wait=\(wait)"
        if let after { query += "&after=\(after)" }
        return try await client.send("GET", "/api/v1/events?\(query)")
    }

    /// The `events` of a listEvents answer.
    static func events(_ response: TestClient.Response) -> [[String: Any]] {
        response.object["events"] as? [[String: Any]] ?? []
    }

    /// The ids of the `events` of a listEvents answer, as numbers.
    static func ids(_ response: TestClient.Response) -> [Int] {
        events(response).compactMap { ($0["id"] as? String).flatMap { Int($0) } }
    }

    /// `notify.preview_mode` of a settings answer.
    static func previewMode(_ response: TestClient.Response) -> String? {
        (response.object["notify"] as? [String: Any])?["preview_mode"] as? String
    }

    /// createMessage (or createChannelMessage) with a fresh `client_msg_id`.
    static func createMessage(_ client: TestClient, in path: String, text: String) async throws -> TestClient.Response {
        try await client.send(
            "POST", path,
            json: ["client_msg_id": UUID().uuidString.lowercased(), "text": text, "attachments": [String]()])
    }
}
