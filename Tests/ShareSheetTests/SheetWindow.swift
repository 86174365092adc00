import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitKeychainInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTargetStoreInterface
import ShareKitTestSupport
import Testing

/// One node of the sheet's accessible tree, as a screen reader sees it.
struct AccessibleNode: Equatable, CustomStringConvertible {
    let role: String
    let name: String
    let sensitive: Bool
    let focused: Bool
    /// The current value of a node that has one (a progress bar's fraction).
    var value: Double? = nil
    /// An editable text's contents (an entry's), else empty.
    var text = ""

    var description: String {
        "\(role) \"\(name)\"\(sensitive ? "" : " insensitive")\(focused ? " focused" : "")"
            + (value.map { " value \($0)" } ?? "") + (text.isEmpty ? "" : " text \"\(text)\"")
    }
}

/// A running `share-sheet` on the suite's desktop, driven like a person
/// with a keyboard (xdotool) and read like a screen reader (AT-SPI).
final class SheetWindow: @unchecked Sendable {
    let process: HelperProcess
    let desktop: DesktopSession
    /// Where the program's standard error goes.
    let errorFile: String
    /// The X window, once it is there.
    private(set) var window = ""

    /// Starts `share-sheet <arguments>` (or another program that opens
    /// the sheet) and waits until the sheet's window is mapped and focused.
    /// - Parameters:
    ///   - program: the built program to start.
    ///   - ownWindow: whether the window is the program's own; else it is
    ///     the only sheet on the desktop (`share send --desktop` starts it).
    init(_ arguments: [String], environment: [String: String], program: String = "share-sheet", ownWindow: Bool = true)
        throws
    {
        desktop = try #require(DesktopSession.current, "the suite needs .desktop")
        // Standard error into a file: GTK's warnings would fill a pipe nobody reads while the test types.
        errorFile = desktop.home.file("stderr-\(UUID().uuidString)")
        process = try HelperProcess(
            executable: "/bin/sh",
            ["-c", "exec \"$0\" \"$@\" 2>>\"$SHEET_ERRORS\"", BuiltProducts.path(program)] + arguments,
            environment: environment.merging(desktop.environment) { $1 }.merging(["SHEET_ERRORS": errorFile]) { $1 })
        let deadline = ContinuousClock.now + .seconds(30)
        let owner = ownWindow ? ["--pid", "\(process.pid)"] : []
        while ContinuousClock.now < deadline {
            let found = try xdotool(["search", "--onlyvisible"] + owner + ["--name", "^(Share|Teilen)$"])
            if let first = found.stdout.split(separator: "\n").first {
                window = String(first)
                break
            }
            try waitBriefly()
        }
        guard !window.isEmpty else {
            process.kill(SIGKILL)
            throw ServerProcessError("no sheet window: \(process.finish().stderr)")
        }
        // No window manager: the test gives the sheet the keyboard itself.
        _ = try xdotool(["windowfocus", "--sync", window])
    }

    /// Whether the window is gone (its program ended), within 30 seconds.
    func waitUntilClosed() throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let found = try xdotool(["search", "--onlyvisible", "--name", "^(Share|Teilen)$"])
            if !found.stdout.split(separator: "\n").contains(Substring(window)) { return true }
            try waitBriefly()
        }
        return false
    }

    /// Presses keys (xdotool's names: `Down`, `Return`, `ctrl+Return`, `Escape`).
    func press(_ keys: String...) throws {
        // Through XTEST to the focused window, as a keyboard would (GTK treats sent events as synthetic).
        _ = try xdotool(["key"] + keys)
    }

    /// Types text as keystrokes.
    func type(_ text: String) throws {
        _ = try xdotool(["type", "--delay", "10", text])
    }

    /// The accessible tree now.
    func tree() throws -> [AccessibleNode] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "atspi-tree.py"
        ).path
        // A sheet that stopped answering would hold the reader for AT-SPI's timeout on every node.
        let result = try runProcess(
            "/usr/bin/timeout", ["20", "/usr/bin/python3", script, "share-sheet"], environment: desktop.environment)
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            return AccessibleNode(
                role: fields[0], name: fields[1], sensitive: fields[2] == "sensitive", focused: fields[3] == "focused",
                value: fields.count > 4 ? Double(fields[4]) : nil, text: fields.count > 5 ? fields[5] : "")
        }
    }

    /// Reads the tree until `predicate` holds (a search answered, a label
    /// changed), or 30 seconds passed.
    /// - Returns: the tree that satisfied it, or nil.
    func waitForTree(_ predicate: ([AccessibleNode]) -> Bool) throws -> [AccessibleNode]? {
        let deadline = ContinuousClock.now + .seconds(30)
        var last: [AccessibleNode] = []
        while ContinuousClock.now < deadline {
            last = try tree()
            if predicate(last) { return last }
            try waitBriefly()
        }
        Issue.record("the sheet never showed what the test waited for; its tree: \(last)")
        return nil
    }

    /// Waits for the target row named `name`, goes to it with Down and
    /// chooses it with Enter, as a person would.
    /// - Returns: the rows' names, in the list's order.
    func chooseRow(_ name: String) throws -> [String] {
        let found = try #require(try waitForTree { $0.contains { $0.role == "list item" && $0.name == name } })
        let rows = found.filter { $0.role == "list item" }.map(\.name)
        let index = try #require(rows.firstIndex(of: name))
        for _ in 0..<index { try press("Down") }
        try press("Return")
        return rows
    }

    /// The button named `name`.
    static func button(_ name: String, in tree: [AccessibleNode]) -> AccessibleNode? {
        tree.first { $0.role == "push button" && $0.name == name }
    }

    /// How the program ended: its exit status and what it wrote.
    struct Ending {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Waits for the program to end (at most 60 s) and returns what it left.
    func finish() -> Ending {
        // Its output ends when it does; a sheet that never ends is killed and fails the test.
        let deadline = ContinuousClock.now + .seconds(60)
        var lines: [String] = []
        while let line = process.readLine(until: deadline) { lines.append(line) }
        if ContinuousClock.now >= deadline { process.kill(SIGKILL) }
        let outcome = process.finish()
        let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return Ending(status: outcome.status, stdout: lines.map { $0 + "\n" }.joined() + outcome.stdout, stderr: errors)
    }

    private func xdotool(_ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/xdotool", arguments, environment: desktop.environment)
    }

    /// A tenth of a second between two looks at the screen: polling a
    /// condition with a deadline, never a wait that stands for one.
    private func waitBriefly() throws {
        usleep(100_000)
    }
}

/// Alex at a real `share-server` (logged in unless asked not to), the
/// environment of the sheet, and what the server and the share inbox hold.
final class SheetFixture: @unchecked Sendable {
    let sandbox: ClientSandbox

    init(seed: [String: Any]? = nil, loggedIn: Bool = true) async throws {
        sandbox = try ClientSandbox(seed: seed, prefix: "share-sheet-test")
        if loggedIn { try await sandbox.logInAsAlex() }
    }

    /// Starts the sheet on the suite's desktop.
    func sheet(_ arguments: [String], environment extra: [String: String] = [:]) throws -> SheetWindow {
        try SheetWindow(arguments, environment: sandbox.environment.merging(extra) { $1 })
    }

    /// Runs `share <arguments>` on the suite's desktop and finds the sheet it opened.
    func shareOpeningSheet(_ arguments: [String], environment extra: [String: String] = [:]) throws -> SheetWindow {
        try SheetWindow(
            arguments, environment: sandbox.environment.merging(extra) { $1 }, program: "share", ownWindow: false)
    }

    /// Makes `target` a recent target, as a successful share would.
    func remember(_ target: ShareTarget) throws {
        try sandbox.assembly.recentTargets(of: SignedInAccount(origin: sandbox.origin, username: "alex"))
            .record(target)
    }

    /// The texts and attachment names of a thread's messages (Alex's parent session).
    func messages(thread: String) async throws -> [(text: String, files: [String])] {
        try await sandbox.messages(thread: thread)
    }

    /// The threads whose title matches `query` (searchThreadTitles, Alex's parent session).
    func threads(matching query: String) async throws -> [(id: String, title: String, channel: String)] {
        let origin = sandbox.origin
        let token = try await sandbox.connection.provider(.parent).currentAccessToken()
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let response = try await sandbox.connection.signed.send(
            HTTPClientRequest(method: .get, url: origin + "/api/v1/threads/search?q=" + encoded),
            accessToken: token.plainText)
        let found = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [[String: Any]] ?? []
        return found.map {
            ($0["id"] as? String ?? "", $0["title"] as? String ?? "", $0["channel_id"] as? String ?? "")
        }
    }

    /// The share inbox's entries.
    func inboxEntries() throws -> [InboxEntry] {
        try FileShareInbox(directory: sandbox.assembly.container.inboxPath).scan().entries
    }

    func close() { sandbox.close() }
}
