import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import ShareKitTestSupport

/// Alex logged in (parent and child session) against a real `share-server`,
/// and the `share` program run in a pseudo-terminal or with pipes.
final class PickerFixture: @unchecked Sendable {
    let sandbox: ClientSandbox

    init() async throws {
        sandbox = try ClientSandbox(prefix: "share-picker-test")
        try await sandbox.logInAsAlex()
    }

    /// The environment of `share`: this app group, a plain terminal type, no desktop.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        sandbox.environment.merging(["TERM": "xterm", "DISPLAY": "", "WAYLAND_DISPLAY": ""]) { $1 }
            .merging(extra) { $1 }
    }

    /// Starts `share <arguments>` on a pseudo-terminal.
    func picker(_ arguments: [String], environment extra: [String: String] = [:]) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(BuiltProducts.path("share"), arguments, environment: environment(extra))
    }

    /// Runs `share <arguments>` with pipes (no terminal).
    func share(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share"), arguments, environment: environment(extra), stdin: "")
    }

    /// Makes `target` the newest recent target, as a successful share would.
    func remember(_ target: ShareTarget) throws {
        try sandbox.assembly.recentTargets(of: SignedInAccount(origin: sandbox.origin, username: "alex"))
            .record(target)
    }

    /// The texts and attachment names of a thread's or channel's messages (Alex's parent session).
    func messages(thread: String? = nil, channel: String? = nil) async throws -> [(text: String, files: [String])] {
        try await sandbox.messages(thread: thread, channel: channel)
    }

    /// The share inbox's entries.
    func inboxEntries() throws -> [InboxEntry] {
        try FileShareInbox(directory: sandbox.assembly.container.inboxPath).scan().entries
    }

    /// A file in the test's home.
    func file(_ name: String, _ contents: String) throws -> String {
        let path = sandbox.home.file(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func close() { sandbox.close() }
}

enum Demo {
    static let resumeTheGateway = ShareTarget(
        kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
    static let gateway = ShareTarget(kind: .channel, id: "c1", displayPath: "server > Gateway")
}
