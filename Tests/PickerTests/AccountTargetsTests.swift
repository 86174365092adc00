import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Recent targets and cached limits belong to one account on one server:
/// a share with `--server B` leaves nothing in what the picker and `share
/// targets` of server A show, and A's limits never judge a share for B.
/// Two `share-server` processes, one app group, `share` as a process (the
/// picker in a pseudo-terminal).
@Suite("recent targets and limits per account")
struct AccountTargetsTests {
    /// The `{kind, id, display_path}` objects `share targets --json` printed.
    static func targets(_ result: ProcessResult) -> [[String: Any]] {
        TwoAccounts.json(result) as? [[String: Any]] ?? []
    }

    @Test("a share with --server B: the picker and share targets of A show only A's targets, and Enter sends to A")
    func pickerShowsOnlyTheCurrentAccount() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.b)
        try accounts.login(.a)  // A is the default server now; B's session stays

        let zip = accounts.home.file("night.zip")
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: zip))
        let toA = try accounts.share(["send", "--text", "for A", "--to", "thread:t1"])
        #expect(toA.status == 0, "\(toA.stderr)")
        // B accepts ZIP archives, A does not: A's limits must not refuse a share for B.
        let archive = try accounts.share(["send", zip, "--server", accounts.origin(.b), "--to", "thread:t9"])
        #expect(archive.status == 0, "A's limits judged a share for B: \(archive.stderr)")
        let toB = try accounts.share(["send", "--server", accounts.origin(.b), "--text", "for B", "--to", "thread:t9"])
        #expect(toB.status == 0, "\(toB.stderr)")

        let recentA = Self.targets(try accounts.share(["targets", "--json"]))
        #expect(recentA.map { $0["display_path"] as? String } == [TwoAccounts.gatewayPath], "\(recentA)")
        let recentB = Self.targets(try accounts.share(["targets", "--json", "--server", accounts.origin(.b)]))
        #expect(recentB.map { $0["display_path"] as? String } == [TwoAccounts.nightPath], "\(recentB)")
        // What Tab offers for --to: the current account's targets too.
        let completed = try accounts.share(["__complete", "targets"])
        #expect(completed.stdout.contains("thread:t1") && !completed.stdout.contains("t9"), "\(completed.stdout)")

        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", "--text", "picked"],
            environment: accounts.environment.merging(["TERM": "xterm", "DISPLAY": "", "WAYLAND_DISPLAY": ""]) { $1 })
        let screen = terminal.waitForScreen { $0.contains("Recent targets:") && $0.contains("resume the gateway") }
        #expect(screen != nil, "\(terminal.screen)")
        #expect(screen?.contains("deploy night") == false, "B's target is offered under A: \(screen ?? "")")
        terminal.send(Keys.tab + Keys.tab + Keys.enter)
        #expect(terminal.waitForScreen { $0.contains("To: \(TwoAccounts.gatewayPath)") } != nil, "\(terminal.screen)")
        terminal.send(Keys.enter)
        #expect(terminal.waitForExit() == 0, "\(terminal.raw)")
        #expect(try await accounts.messages(at: .a, thread: "t1").map(\.text) == ["for A", "picked"])
        #expect(try await accounts.messages(at: .b, thread: "t9").map(\.text) == ["", "for B"])
    }

    @Test("recent targets an earlier version kept without an account are never shown under another server")
    func legacyRecentsReadSafely() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.b)
        try accounts.login(.a)
        // What an earlier version left after `share send --server B`: one list for every server.
        let legacy = #"[{"display_path":"beta > Ops > deploy night","id":"t9","kind":"thread"}]"#
        let state = FileSharedState(directory: accounts.home.file("container"))
        try state.set(legacy, for: .recentTargets)

        let listed = try accounts.share(["targets", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.targets(listed).isEmpty, "B's target shown under A: \(listed.stdout)")
        let atB = try accounts.share(["targets", "--json", "--server", accounts.origin(.b)])
        #expect(Self.targets(atB).isEmpty, "a list of no known server is not given to one: \(atB.stdout)")
        #expect(try state.value(for: .recentTargets) == nil, "the list without an account is gone")
    }

    @Test("with one account, the recent targets an earlier version kept become that account's")
    func legacyRecentsOfTheOnlyAccountKept() async throws {
        let accounts = try TwoAccounts()
        defer { accounts.close() }
        try accounts.login(.a)
        let legacy = #"[{"display_path":"server > Gateway > resume the gateway","id":"t1","kind":"thread"}]"#
        let state = FileSharedState(directory: accounts.home.file("container"))
        try state.set(legacy, for: .recentTargets)

        let listed = try accounts.share(["targets", "--json"])
        #expect(Self.targets(listed).map { $0["id"] as? String } == ["t1"], "\(listed.stdout) \(listed.stderr)")
        #expect(try state.value(for: .recentTargets) == nil)
        let again = try accounts.share(["targets", "--json"])
        #expect(Self.targets(again).map { $0["id"] as? String } == ["t1"], "moved, not copied each time")
    }
}
