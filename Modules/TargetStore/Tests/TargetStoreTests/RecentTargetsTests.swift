import ShareKitCore
import ShareKitSharedStateInterface
import ShareKitSharedStateInterfaceTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Testing

/// The recent targets a picker offers: newest first, one entry per target,
/// the account's limit, and a corrupt list reset with a warning.
@Suite("SharedStateRecentTargets: order, limit, accounts and corrupt lists")
struct RecentTargetsTests {
    static let alex = AccountScope(origin: "https://chat.example", username: "alex")
    static let sam = AccountScope(origin: "https://chat.example", username: "sam")

    func target(_ n: Int) -> ShareTarget { ShareTarget(kind: .thread, id: "t-\(n)", displayPath: "Lab > chat > \(n)") }

    @Test("a target recorded again moves to the front; the oldest beyond the limit go")
    func orderAndLimit() throws {
        let state = InMemorySharedState()
        let recent = SharedStateRecentTargets(state: state, account: Self.alex, defaultLimit: 3)
        for n in 1...4 { try recent.record(target(n)) }
        #expect(try recent.list().targets.map(\.id) == ["t-4", "t-3", "t-2"])
        try recent.record(target(2))
        #expect(try recent.list().targets.map(\.id) == ["t-2", "t-4", "t-3"])
        #expect(try recent.remove(ids: ["t-4"]).targets.map(\.id) == ["t-2", "t-3"])
    }

    @Test("the account's limit from the shared state wins over the default; two accounts never mix")
    func accountLimitAndScopes() throws {
        let state = InMemorySharedState()
        try state.set("2", for: SharedStateKey.recentTargetsLimit.scoped(to: Self.alex))
        let alex = SharedStateRecentTargets(state: state, account: Self.alex, defaultLimit: 8)
        let sam = SharedStateRecentTargets(state: state, account: Self.sam, defaultLimit: 8)
        #expect(alex.limit == 2 && sam.limit == 8)
        for n in 1...3 { try alex.record(target(n)) }
        #expect(try alex.list().targets.count == 2)
        #expect(try sam.list().targets.isEmpty)
    }

    @Test("a stored list that is not JSON is reset and reported, never thrown")
    func corrupt() throws {
        let state = InMemorySharedState()
        try state.set("{not json", for: SharedStateKey.recentTargets.scoped(to: Self.alex))
        let recent = SharedStateRecentTargets(state: state, account: Self.alex)
        let listed = try recent.list()
        #expect(listed.targets.isEmpty && listed.warning != nil)
        try recent.record(target(1))
        #expect(try recent.list() == RecentTargets(targets: [target(1)]))
    }
}
