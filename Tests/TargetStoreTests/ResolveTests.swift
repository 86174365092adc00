import ShareKitCore
import ShareKitHTTPInterfaceTesting
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Testing

/// `share send --to TARGET` resolved against the demo seed as Alex, who
/// writes in server > Gateway (chat, t1 "resume the gateway"), server >
/// Ideas (forum) and design > Reviews (forum, t4 "Résumé screen review"),
/// and only reads server > Announcements (c3).
@Suite("targets: resolving references and display paths against share-server")
struct ResolveTests {
    @Test("thread:, channel: and new-post: resolve to the server's display paths")
    func references() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let d = fixture.directory
        #expect(
            try await d.resolve("thread:t1")
                == ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway"))
        #expect(
            try await d.resolve("channel:c1") == ShareTarget(kind: .channel, id: "c1", displayPath: "server > Gateway"))
        #expect(
            try await d.resolve("new-post:c4")
                == ShareTarget(kind: .newPost, id: "c4", displayPath: "design > Reviews > new post"))
    }

    @Test("display paths: exact, then without case, with uneven spaces around '>'")
    func displayPaths() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let d = fixture.directory
        let t1 = ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
        #expect(try await d.resolve("server > Gateway > resume the gateway") == t1)
        #expect(try await d.resolve("SERVER>gateway >  Resume The Gateway ") == t1)
        #expect(try await d.resolve("server > Gateway").id == "c1")
        #expect(try await d.resolve("server > Gateway").kind == .channel)
        #expect(
            try await d.resolve("server > ideas > New Post")
                == ShareTarget(kind: .newPost, id: "c2", displayPath: "server > Ideas > new post"))
        #expect(try await d.resolve("design > Reviews > Résumé screen review").id == "t4")
    }

    @Test("a channel Alex only reads is refused as not writable, by path and by reference")
    func notWritable() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let c3 = ShareTarget(kind: .channel, id: "c3", displayPath: "server > Announcements")
        #expect(await targetError { try await fixture.directory.resolve("server > Announcements") } == .notWritable(c3))
        let byReference = await targetError { try await fixture.directory.resolve("channel:c3") }
        #expect(byReference == .notWritable(c3))
        #expect(byReference?.isRetryable == false)
        #expect(byReference?.description.contains("server > Announcements") == true)
    }

    @Test("an unknown path is notFound with close writable suggestions, best first")
    func unknownWithSuggestions() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let d = fixture.directory
        let typo = await targetError { try await d.resolve("server > Gatway > resume the gateway") }
        #expect(typo?.offeredPaths.first == "server > Gateway > resume the gateway", "\(String(describing: typo))")
        let shortened = await targetError { try await d.resolve("server > Gateway > resume gateway") }
        #expect(shortened?.offeredPaths.first == "server > Gateway > resume the gateway")
        let forumWithoutNewPost = await targetError { try await d.resolve("server > Ideas") }
        #expect(forumWithoutNewPost?.offeredPaths == ["server > Ideas > new post"])
        let nonsense = await targetError { try await d.resolve("nowhere > nothing at all") }
        #expect(nonsense == .notFound("nowhere > nothing at all", suggestions: []))
        let unwritable = await targetError { try await d.resolve("server > Announcement") }
        #expect(unwritable?.offeredPaths.contains("server > Announcements") == false)
        let bare = await targetError { try await d.resolve("Gateway") }
        #expect(bare?.offeredPaths.first == "server > Gateway")
        #expect(bare?.description.contains("Did you mean:\n  server > Gateway") == true)
    }

    @Test("references that name no usable target are refused with the reason")
    func badReferences() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let d = fixture.directory
        #expect(await targetError { try await d.resolve("thread:nope") } == .notFound("thread:nope", suggestions: []))
        #expect(await targetError { try await d.resolve("channel:c9") } == .notFound("channel:c9", suggestions: []))
        let chatAsPost = await targetError { try await d.resolve("new-post:c1") }
        guard case .invalidReference(_, let reason)? = chatAsPost else {
            Issue.record("new-post:c1: \(String(describing: chatAsPost))")
            return
        }
        #expect(reason.contains("chat channel") && reason.contains("channel:c1"))
        let forumAsChannel = await targetError { try await d.resolve("channel:c2") }
        #expect(forumAsChannel?.description.contains("new-post:c2") == true)
        guard case .invalidReference? = await targetError({ try await d.resolve("thread:") }) else {
            Issue.record("thread: with no id was accepted")
            return
        }
    }

    @Test("what Robin cannot read does not exist for Robin")
    func invisible() async throws {
        let fixture = try await TargetFixture(as: "robin")
        defer { fixture.close() }
        let d = fixture.directory
        #expect(await targetError { try await d.resolve("thread:t3") } == .notFound("thread:t3", suggestions: []))
        #expect(await targetError { try await d.resolve("new-post:c2") } == .notFound("new-post:c2", suggestions: []))
        #expect(try await d.resolve("channel:c3").displayPath == "server > Announcements")
    }

    /// Titles that differ only by case, a title twice, and one thread beyond
    /// the first 100 threads searchThreadTitles lists.
    static var crowdedSeed: [String: Any] {
        var threads: [[String: Any]] = [
            ["id": "t-upper", "channel_id": "c1", "title": "Plan"],
            ["id": "t-lower", "channel_id": "c1", "title": "plan"],
            ["id": "t-sync-1", "channel_id": "c1", "title": "weekly sync"],
            ["id": "t-sync-2", "channel_id": "c1", "title": "weekly sync"],
            ["id": "t-zz", "channel_id": "c1", "title": "zz archive"],
        ]
        threads += (0..<100).map { ["id": "t-topic-\($0)", "channel_id": "c1", "title": "topic \($0)"] }
        return [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "team",
                    "channels": [
                        ["id": "c1", "name": "chat", "kind": "chat", "readers": ["alex"], "writers": ["alex"]]
                    ],
                ]
            ],
            "threads": threads,
        ]
    }

    @Test("ambiguous matches list every candidate; case decides first; a thread beyond the listing still resolves")
    func ambiguity() async throws {
        let fixture = try await TargetFixture(seed: Self.crowdedSeed)
        defer { fixture.close() }
        let d = fixture.directory
        let twice = await targetError { try await d.resolve("team > chat > weekly sync") }
        guard case .ambiguous(_, let candidates)? = twice else {
            Issue.record("weekly sync: \(String(describing: twice))")
            return
        }
        #expect(Set(candidates.map(\.target.id)) == ["t-sync-1", "t-sync-2"])
        #expect(twice?.description.contains("matches several targets") == true)
        #expect(try await d.resolve("team > chat > plan").id == "t-lower")
        #expect(try await d.resolve("team > chat > Plan").id == "t-upper")
        let noCase = await targetError { try await d.resolve("team > chat > PLAN") }
        #expect(Set(noCase?.offeredPaths ?? []) == ["team > chat > Plan", "team > chat > plan"])
        #expect(
            try await d.resolve("thread:t-zz") == ShareTarget(kind: .thread, id: "t-zz", displayPath: "thread t-zz"))
        #expect(try await d.resolve("team > chat > zz archive").id == "t-zz")
    }
}
