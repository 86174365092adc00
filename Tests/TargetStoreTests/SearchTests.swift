import ShareKitCore
import ShareKitHTTPInterfaceTesting
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Testing

/// Search as the picker uses it, against the demo seed.
@Suite("targets: search through listSpaces and searchThreadTitles")
struct SearchTests {
    @Test("names that start with the query first, channels before threads, case and accents ignored")
    func ranking() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let gate = try await fixture.directory.search(query: "GATE", limit: 10)
        #expect(
            gate.map(\.target.displayPath) == [
                "server > Gateway", "server > Gateway > Gateway timeouts on upload",
                "server > Gateway > resume the gateway",
            ])
        #expect(gate.map(\.kind) == [.channel, .thread, .thread])
        #expect(gate.allSatisfy { $0.canWrite })
        let resume = try await fixture.directory.search(query: "resume", limit: 10)
        #expect(resume.map(\.target.id) == ["t4", "t1"])
        #expect(resume.first?.threadTitle == "Résumé screen review" && resume.first?.spaceName == "design")
    }

    @Test("a forum channel is offered as a new post; read-only targets only when asked")
    func kindsAndPermissions() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let d = fixture.directory
        let ideas = try await d.search(query: "ideas", limit: 10)
        #expect(
            ideas.map(\.target) == [
                ShareTarget(kind: .newPost, id: "c2", displayPath: "server > Ideas > new post"),
                ShareTarget(kind: .thread, id: "t3", displayPath: "server > Ideas > Share sheet ideas"),
            ])
        #expect(try await d.search(query: "announce", limit: 10).isEmpty)
        let readOnly = try await d.search(query: "announce", limit: 10, includingReadOnly: true)
        #expect(readOnly.map(\.target.id) == ["c3"] && readOnly.first?.canWrite == false)
        #expect(readOnly.first?.description == "server > Announcements (read only)")
        let bySpace = try await d.search(query: "design", limit: 10)
        #expect(bySpace.map(\.target.id) == ["c4"])
    }

    @Test("an empty query lists writable targets up to the limit")
    func limit() async throws {
        let fixture = try await TargetFixture()
        defer { fixture.close() }
        let all = try await fixture.directory.search(query: "", limit: 50)
        #expect(
            Set(all.map(\.target.id)) == ["c1", "c2", "c4", "t1", "t2", "t3", "t4"], "\(all.map(\.target.displayPath))")
        let three = try await fixture.directory.search(query: "", limit: 3)
        #expect(three.map(\.target) == Array(all.prefix(3)).map(\.target))
        #expect(try await fixture.directory.search(query: "", limit: 0).isEmpty)
    }
}
