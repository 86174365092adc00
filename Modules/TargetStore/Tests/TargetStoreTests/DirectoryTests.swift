import ShareKitCore
import ShareKitServerAPIInterface
import ShareKitServerAPIInterfaceTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Testing

/// What the picker and `share send --to` see of ``ServerTargetDirectory``:
/// search ranking, resolution of references and display paths, and the
/// words a person reads when the server cannot answer.
@Suite("ServerTargetDirectory: search, resolve and unavailable servers")
struct DirectoryTests {
    static let spaces = #"""
        [{"id":"s1","name":"Lab","channels":[
          {"id":"c-gate","name":"Gateway","kind":"chat","can_write":true},
          {"id":"c-news","name":"News","kind":"chat","can_write":false},
          {"id":"c-forum","name":"Ideas","kind":"forum","can_write":true}]},
         {"id":"s2","name":"Home","channels":[
          {"id":"c-gate2","name":"Gateway","kind":"chat","can_write":true}]}]
        """#
    static let threads = #"""
        [{"id":"t-1","title":"Open gate times","channel_id":"c-forum","channel_name":"Ideas","space_name":"Lab","can_write":true},
         {"id":"t-2","title":"Gate log","channel_id":"c-news","channel_name":"News","space_name":"Lab","can_write":false}]
        """#

    func directory(_ extra: [Result<APIResponse, APIError>] = []) -> (ServerTargetDirectory, ScriptedAPIClient) {
        let api = ScriptedAPIClient(extra)
        api.answer(operation: "listSpaces", with: Array(repeating: .json(200, Self.spaces), count: 5))
        api.answer(operation: "searchThreadTitles", with: Array(repeating: .json(200, Self.threads), count: 5))
        return (ServerTargetDirectory(api: api, cacheLifetime: .seconds(60)), api)
    }

    @Test("names that start with the query come first; read-only targets only when asked; forum channels are new posts")
    func search() async throws {
        let (directory, api) = directory()
        let found = try await directory.search(query: "GATE", limit: 10)
        #expect(found.map(\.target.id) == ["c-gate", "c-gate2", "t-1"])
        #expect(found.allSatisfy { $0.canWrite })
        let all = try await directory.search(query: "gate", limit: 10, includingReadOnly: true)
        #expect(all.map(\.target.id).contains("t-2"))
        // The read-only channel News: left out unless asked for.
        #expect(!(try await directory.search(query: "news", limit: 10).map(\.target.id).contains("c-news")))
        #expect(
            try await directory.search(query: "news", limit: 10, includingReadOnly: true).first?.target.id == "c-news")
        let ideas = try await directory.search(query: "idea", limit: 1)
        #expect(ideas.map(\.target.kind) == [.newPost])
        #expect(try await directory.search(query: "gate", limit: 0).isEmpty)
        let search = try #require(api.requests.first { $0.operation == "searchThreadTitles" })
        #expect(search.path.contains("q=GATE") && search.path.contains("limit="))
        // Within the cache's lifetime the spaces are asked for once.
        #expect(api.operations.filter { $0 == "listSpaces" }.count == 1)
    }

    @Test("display paths and references resolve to writable targets, with the server's names")
    func resolve() async throws {
        let (directory, _) = directory()
        #expect(
            try await directory.resolve("Lab > Gateway")
                == ShareTarget(kind: .channel, id: "c-gate", displayPath: "Lab > Gateway"))
        #expect(try await directory.resolve("lab > gateway").id == "c-gate")
        #expect(try await directory.resolve("channel:c-gate2").displayPath == "Home > Gateway")
        #expect(try await directory.resolve("new-post:c-forum").kind == .newPost)
        #expect(try await directory.resolve("thread:t-1").displayPath == "Lab > Ideas > Open gate times")
    }

    @Test("read-only, forum-as-chat, unknown and malformed targets are refused with what to do instead")
    func refusals() async throws {
        let (directory, _) = directory()
        let news = await error { try await directory.resolve("Lab > News") }
        #expect(news == .notWritable(ShareTarget(kind: .channel, id: "c-news", displayPath: "Lab > News")))
        guard case .invalidReference(_, let reason)? = await error({ try await directory.resolve("channel:c-forum") })
        else {
            Issue.record("a forum channel was accepted as a chat channel")
            return
        }
        #expect(reason.contains("new-post:c-forum"))
        guard case .notFound(_, let suggestions)? = await error({ try await directory.resolve("Lab > Gatway") }) else {
            Issue.record("a misspelt path was not refused as not found")
            return
        }
        #expect(suggestions.map { $0.target.id }.contains("c-gate"))
        guard case .invalidReference? = await error({ try await directory.resolve("thread:") }) else {
            Issue.record("an empty reference was accepted")
            return
        }
    }

    @Test("an ended session is not retryable and says to sign in; a busy server is retryable with its wait")
    func unavailable() async {
        let ended = ServerTargetDirectory(api: ScriptedAPIClient([.failure(.sessionEnded("the session was revoked"))]))
        guard
            case .unavailable(let reason, retryable: false)? = await error({ try await ended.resolve("Lab > Gateway") })
        else {
            Issue.record("an ended session was retryable")
            return
        }
        #expect(reason.contains("share login"))
        let busy = ServerTargetDirectory(api: ScriptedAPIClient([.unavailable(429, retryAfter: .seconds(9))]))
        let failure = await error { _ = try await busy.search(query: "x", limit: 5) }
        #expect(failure?.isRetryable == true && failure?.description.contains("9 seconds") == true)
    }

    private func error<T>(_ body: () async throws -> T) async -> TargetError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? TargetError
        }
    }
}
