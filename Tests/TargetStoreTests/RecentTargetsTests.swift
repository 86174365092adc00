import Foundation
import ShareKitCore
import ShareKitHTTPInterfaceTesting
import ShareKitSessionsInterfaceTesting
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import ShareKitTestSupport
import Testing

/// The recent targets in a real shared-state file.
@Suite("targets: recent targets in the shared state")
struct RecentTargetsTests {
    static let t1 = ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
    static let t2 = ShareTarget(kind: .thread, id: "t2", displayPath: "server > Gateway > Gateway timeouts on upload")
    static let c1 = ShareTarget(kind: .channel, id: "c1", displayPath: "server > Gateway")
    static let c2Channel = ShareTarget(kind: .channel, id: "c2", displayPath: "server > Ideas")
    static let c2Post = ShareTarget(kind: .newPost, id: "c2", displayPath: "server > Ideas > new post")

    /// A state file of its own in a temporary directory.
    struct Store {
        let home: TemporaryDirectory
        let state: FileSharedState
        /// The account whose list the tests use.
        static let account = AccountScope(origin: "http://127.0.0.1:8080", username: "alex")
        /// Its list and its limit in the shared state.
        let key = SharedStateKey.recentTargets.scoped(to: Store.account)
        let limitKey = SharedStateKey.recentTargetsLimit.scoped(to: Store.account)
        init() throws {
            home = try TemporaryDirectory(prefix: "recent-targets")
            state = FileSharedState(directory: home.file("container"))
        }
        func recents(defaultLimit: Int = 8) -> SharedStateRecentTargets {
            SharedStateRecentTargets(state: state, account: Self.account, defaultLimit: defaultLimit)
        }
    }

    @Test("newest first, one entry per kind and id, the same id as another kind kept")
    func orderingAndDeduplication() throws {
        let store = try Store()
        defer { store.home.remove() }
        let recents = store.recents()
        try recents.record(Self.t1)
        try recents.record(Self.c1)
        try recents.record(Self.c2Post)
        try recents.record(Self.c2Channel)
        let again = try recents.record(Self.t1)
        #expect(again.targets == [Self.t1, Self.c2Channel, Self.c2Post, Self.c1])
        #expect(again.warning == nil)
        // Another store over the same state (another program) sees the same list.
        #expect(try store.recents().list().targets == again.targets)
        let stored = try #require(try store.state.value(for: store.key))
        #expect(stored.contains(#""display_path":"server > Gateway > resume the gateway""#))
    }

    @Test("at most client.share.recent_targets, else the default; the oldest go")
    func limit() throws {
        let store = try Store()
        defer { store.home.remove() }
        let recents = store.recents(defaultLimit: 2)
        try recents.record(Self.t1)
        try recents.record(Self.t2)
        #expect(try recents.record(Self.c1).targets == [Self.c1, Self.t2])
        try store.state.set("3", for: store.limitKey)
        try recents.record(Self.t1)
        #expect(try recents.record(Self.c2Post).targets == [Self.c2Post, Self.t1, Self.c1])
        try store.state.set("1", for: store.limitKey)
        #expect(try recents.list().targets == [Self.c2Post])
        try store.state.set("zero", for: store.limitKey)
        #expect(recents.limit == 2)
    }

    @Test("remove(ids:) drops a channel and its threads; removeAll leaves nothing in the state")
    func removal() throws {
        let store = try Store()
        defer { store.home.remove() }
        let recents = store.recents()
        for target in [Self.t1, Self.c2Post, Self.t2, Self.c1] { try recents.record(target) }
        #expect(try recents.remove(ids: ["c1", "t1", "t2", "unknown"]).targets == [Self.c2Post])
        try recents.removeAll()
        #expect(try recents.list().targets.isEmpty)
        #expect(try store.state.snapshot()[store.key.name] == nil)
    }

    @Test("a corrupt stored list is reset with a warning, never a crash")
    func corruptValue() throws {
        let store = try Store()
        defer { store.home.remove() }
        let recents = store.recents()
        try store.state.set("{not json", for: store.key)
        let listed = try recents.list()
        #expect(listed.targets.isEmpty)
        #expect(listed.warning?.contains("reset") == true)
        #expect(try store.state.value(for: store.key) == nil)
        #expect(try recents.list().warning == nil)

        try store.state.set(#"[{"kind":"galaxy","id":"x","display_path":"far"}]"#, for: store.key)
        let recorded = try recents.record(Self.t1)
        #expect(recorded.targets == [Self.t1])
        #expect(recorded.warning?.contains("could not be read") == true)
    }

    @Test("a corrupt state file is moved aside by the store and reported as a warning")
    func corruptStateFile() throws {
        let store = try Store()
        defer { store.home.remove() }
        let recents = store.recents()
        try recents.record(Self.t1)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.state.path))
        let listed = try recents.list()
        #expect(listed.targets.isEmpty)
        #expect(listed.warning?.contains("moved aside") == true)
        #expect(try recents.record(Self.c1).targets == [Self.c1])
    }

    @Test("many writers at once, each with its own store over the file: no update is lost")
    func concurrentWriters() async throws {
        let store = try Store()
        defer { store.home.remove() }
        try store.state.set("40", for: store.limitKey)
        let path = store.home.file("container")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<24 {
                group.addTask {
                    let own = SharedStateRecentTargets(state: FileSharedState(directory: path), account: Store.account)
                    try own.record(ShareTarget(kind: .thread, id: "t\(i)", displayPath: "s > c > \(i)"))
                }
            }
            try await group.waitForAll()
        }
        let ids = try store.recents().list().targets.map(\.id)
        #expect(Set(ids) == Set((0..<24).map { "t\($0)" }) && ids.count == 24)
    }
}
