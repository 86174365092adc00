import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import Testing

@Suite("In-memory replay store")
struct ReplayStoreTests {
    @Test("first use, replay, and first use again after expiry")
    func expiry() throws {
        let store = InMemoryReplayStore()
        #expect(try store.recordFirstUse(of: "k", now: 100, expiresAt: 161))
        #expect(try !store.recordFirstUse(of: "k", now: 160, expiresAt: 221))
        #expect(try store.recordFirstUse(of: "k", now: 161, expiresAt: 222))
        #expect(try !store.recordFirstUse(of: "k", now: 200, expiresAt: 261))
    }

    @Test("expired entries are dropped, so memory follows the window")
    func pruning() throws {
        let store = InMemoryReplayStore()
        for i in 0..<5000 { #expect(try store.recordFirstUse(of: "a\(i)", now: 100, expiresAt: 161)) }
        #expect(store.count == 5000)
        #expect(try store.recordFirstUse(of: "b", now: 200, expiresAt: 261))
        #expect(store.count == 1)
    }

    @Test("when full of unexpired entries it refuses rather than forgets")
    func capacity() throws {
        let store = InMemoryReplayStore(capacity: 3)
        for i in 0..<3 { #expect(try store.recordFirstUse(of: "k\(i)", now: 0, expiresAt: 60)) }
        #expect(throws: DPoPError.self) { try store.recordFirstUse(of: "k3", now: 1, expiresAt: 61) }
        #expect(try !store.recordFirstUse(of: "k0", now: 1, expiresAt: 61))
        #expect(try store.recordFirstUse(of: "k3", now: 60, expiresAt: 120))
    }

    @Test("of many concurrent first uses of one key exactly one wins")
    func atomic() async throws {
        let store = InMemoryReplayStore()
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { try store.recordFirstUse(of: "same", now: 0, expiresAt: 60) } }
            var wins = 0
            for try await won in group where won { wins += 1 }
            return wins
        }
        #expect(wins == 1)
    }
}
