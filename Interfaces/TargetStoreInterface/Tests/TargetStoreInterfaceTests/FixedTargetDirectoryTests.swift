import ShareKitCore
import ShareKitTargetStoreInterface
import ShareKitTargetStoreInterfaceTesting
import Testing

/// The fake directory follows the protocol's rules over its fixed list.
@Suite("FixedTargetDirectory: search, resolve and scripted failures")
struct FixedTargetDirectoryTests {
    static let candidates = [
        TargetCandidate(
            kind: .channel, id: "c1", canWrite: true, spaceName: "Lab", channelID: "c1", channelName: "Gateway"),
        TargetCandidate(
            kind: .channel, id: "c2", canWrite: false, spaceName: "Lab", channelID: "c2", channelName: "News"),
        TargetCandidate(
            kind: .thread, id: "t1", canWrite: true, spaceName: "Lab", channelID: "c1", channelName: "Gateway",
            threadTitle: "Open gate times"),
        TargetCandidate(
            kind: .newPost, id: "c3", canWrite: true, spaceName: "Lab", channelID: "c3", channelName: "Idées"),
    ]

    @Test("prefix matches first, accents and case ignored, read-only only when asked; every call recorded")
    func search() async throws {
        let directory = FixedTargetDirectory(Self.candidates)
        #expect(try await directory.search(query: "GATE", limit: 10).map(\.target.id) == ["c1", "t1"])
        #expect(try await directory.search(query: "open", limit: 10).map(\.target.id) == ["t1"])
        #expect(try await directory.search(query: "idees", limit: 10).map(\.target.kind) == [.newPost])
        #expect(try await directory.search(query: "news", limit: 10).isEmpty)
        #expect(
            try await directory.search(query: "news", limit: 10, includingReadOnly: true).map(\.target.id) == ["c2"])
        #expect(directory.calls.first == .search(query: "GATE", limit: 10, includingReadOnly: false))
    }

    @Test(
        "references and display paths resolve; read-only, unknown and malformed ones are refused; failures are scripted"
    )
    func resolve() async throws {
        let directory = FixedTargetDirectory(Self.candidates)
        #expect(try await directory.resolve("thread:t1").displayPath == "Lab > Gateway > Open gate times")
        #expect(try await directory.resolve("lab > gateway").id == "c1")
        await #expect(throws: TargetError.notWritable(Self.candidates[1].target)) {
            _ = try await directory.resolve("channel:c2")
        }
        await #expect { _ = try await directory.resolve("Lab > Gatewy") } throws: { error in
            guard case .notFound(_, let suggestions) = error as? TargetError else { return false }
            return suggestions.isEmpty
        }
        await #expect { _ = try await directory.resolve("thread:") } throws: { error in
            guard case .invalidReference = error as? TargetError else { return false }
            return true
        }
        directory.fail(with: .unavailable(reason: "the server could not be reached", retryable: true))
        await #expect(throws: TargetError.unavailable(reason: "the server could not be reached", retryable: true)) {
            _ = try await directory.resolve("thread:t1")
        }
        #expect(try await directory.resolve("thread:t1").id == "t1")
    }
}
