import Foundation
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share-sheet`, the real GTK window under Xvfb, driven with the keyboard
/// only and read through the accessibility bus, against a real
/// `share-server`. Serialized: one desktop, one keyboard.
@Suite("share-sheet on a desktop", .serialized, .desktop)
struct ShareSheetTests {
    static let resumeTheGateway = ShareTarget(
        kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")

    @Test("at start: the search field has the focus, every control its name, Send waits for a target")
    func accessibleAtStart() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let sheet = try fixture.sheet(["--text", "hello"])
        let tree = try #require(try sheet.waitForTree { $0.contains { $0.name == "Text: hello" } })
        #expect(tree.contains { $0.role == "entry" && $0.name == "Search" && $0.focused }, "\(tree)")
        #expect(tree.contains { $0.name == "Comment" }, "\(tree)")
        #expect(SheetWindow.button("Cancel", in: tree)?.sensitive == true, "\(tree)")
        #expect(SheetWindow.button("Send", in: tree)?.sensitive == false, "\(tree)")
        #expect(
            tree.contains { $0.role == "list item" && $0.name == Self.resumeTheGateway.displayPath }, "\(tree)")
        // Enter chooses the first recent target: Send becomes sensitive.
        try sheet.press("Return")
        #expect(try sheet.waitForTree { SheetWindow.button("Send", in: $0)?.sensitive == true } != nil)
        try sheet.press("Escape")
        #expect(sheet.finish().status == 130)
    }

    @Test("a recent target with Enter, a comment after Tab, Ctrl+Enter: the file is in the thread")
    func sendFileToRecent() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let file = try Self.textFile("notes.txt", in: fixture)
        let sheet = try fixture.sheet([file])
        _ = try sheet.waitForTree { $0.contains { $0.name.hasPrefix("notes.txt") } }
        try sheet.press("Return", "Tab")
        try sheet.type("from the sheet")
        #expect(try sheet.waitForTree { $0.contains { $0.focused && $0.name == "Comment" } } != nil)
        try sheet.press("ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("Sent to server > Gateway > resume the gateway."), "\(outcome.stdout)")
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.contains { $0.text == "from the sheet" && $0.files == ["notes.txt"] }, "\(messages)")
        #expect(try fixture.inboxEntries().isEmpty)
    }

    @Test("typing searches thread titles (prefix first), Down and Enter choose one, a text goes there")
    func searchAndSendText() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        let sheet = try fixture.sheet(["--text", "a text from the sheet"])
        _ = try sheet.waitForTree { $0.contains { $0.focused && $0.name == "Search" } }
        try sheet.type("gate")
        let rows = try sheet.chooseRow("server > Gateway > Gateway timeouts on upload")
        // "Gateway" and "Gateway timeouts on upload" begin with the words typed; "resume the gateway" only has them.
        #expect(rows.last == "server > Gateway > resume the gateway", "\(rows)")
        _ = try sheet.waitForTree { SheetWindow.button("Send", in: $0)?.sensitive == true }
        try sheet.press("ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let messages = try await fixture.messages(thread: "t2")
        #expect(messages.contains { $0.text == "a text from the sheet" }, "\(messages)")
    }

    @Test("Escape after choosing a target keeps nothing: no message, no share in the inbox")
    func escapeKeepsNothing() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let before = try await fixture.messages(thread: "t1").count
        let sheet = try fixture.sheet(["--text", "never sent"])
        _ = try sheet.waitForTree { $0.contains { $0.name == "Text: never sent" } }
        try sheet.press("Return", "Tab")
        try sheet.type("a comment")
        try sheet.press("Escape")
        let outcome = sheet.finish()
        #expect(outcome.status == 130)
        #expect(try fixture.inboxEntries().isEmpty)
        #expect(try await fixture.messages(thread: "t1").count == before)
    }

    @Test("a forum channel is offered as a new post; chosen with the keyboard, the share starts a post there")
    func newPostInForum() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        let sheet = try fixture.sheet(["--text", "the idea in full"])
        _ = try sheet.waitForTree { $0.contains { $0.focused && $0.name == "Search" } }
        try sheet.type("ideas")
        // The demo's Ideas is a forum: no main timeline to share into, a new post in it.
        let rows = try sheet.chooseRow("New post in server > Ideas")
        #expect(!rows.contains("server > Ideas"), "a forum is never offered as a channel to write into: \(rows)")
        _ = try sheet.waitForTree { $0.contains { $0.name == "To New post in server > Ideas" } }
        try sheet.press("Tab")
        try sheet.type("A darker sheet")
        _ = try sheet.waitForTree { $0.contains { $0.name == "Comment" && $0.text == "A darker sheet" } }
        try sheet.press("ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        // A new thread in the forum, titled with the comment, its first message the share.
        let posts = try await fixture.threads(matching: "A darker sheet")
        let post = try #require(posts.first, "no new post on the server")
        #expect(posts.count == 1 && post.title == "A darker sheet" && post.channel == "c2", "\(posts)")
        let messages = try await fixture.messages(thread: post.id)
        #expect(messages.count == 1 && messages[0].text.contains("the idea in full"), "\(messages)")
    }

    @Test("during a send: a progress bar between 0 and 1 and a label with the bytes and the rate")
    func progressWithRate() async throws {
        let fixture = try await SheetFixture(seed: Self.smallPartsSeed)
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        // The parts' answers are held by a proxy and let go one at a time:
        // the upload advances only as fast as the test looks at the sheet.
        let proxy = try HoldingProxy([.init("PUT", "/api/v1/uploads/", .hold)])
        defer { proxy.stop() }
        let file = try Self.textFile("notes.txt", in: fixture, lines: 2000)
        let sheet = try fixture.sheet(
            [file], environment: ["http_proxy": proxy.origin, "no_proxy": "", "NO_PROXY": "", "HTTP_PROXY": ""])
        _ = try sheet.waitForTree { $0.contains { $0.name.hasPrefix("notes.txt") } }
        try sheet.press("Return", "ctrl+Return")
        var shown: (bar: AccessibleNode, label: AccessibleNode)?
        var tree: [AccessibleNode] = []
        var held = 1
        let deadline = ContinuousClock.now + .seconds(90)
        while shown == nil, ContinuousClock.now < deadline {
            guard proxy.waitUntilHeld(count: held) != nil else {
                Issue.record("the upload stopped after \(held - 1) parts; the sheet: \(tree)")
                break
            }
            tree = try sheet.tree()
            if let bar = tree.first(where: { $0.role == "progress bar" }), let value = bar.value, value > 0,
                value < 1,
                let label = tree.first(where: { $0.name.hasPrefix("notes.txt: ") && $0.name.hasSuffix("/s") })
            {
                shown = (bar, label)
            } else {
                proxy.releaseOne()
                held += 1
            }
        }
        proxy.release()
        let progress = try #require(shown, "the sheet never showed the progress with a rate: \(tree)")
        // "notes.txt: 5.0 KiB of 60.5 KiB, 2.1 KiB/s": the bytes so far, the file's size, the rate.
        #expect(progress.label.name.contains(" of 60.5 KiB, "), "\(progress.label)")
        #expect(!progress.label.name.hasSuffix(" 0 B/s"), "a rate of nothing while bytes went: \(progress.label)")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.contains { $0.files == ["notes.txt"] }, "\(messages)")
    }

    @Test("an oversize file: its reason is in the sheet, Send stays insensitive, Ctrl+Enter sends nothing")
    func oversizeFile() async throws {
        let fixture = try await SheetFixture(seed: Self.smallLimitSeed)
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let file = try fixture.sandbox.writeFile("big.bin", size: 5000)
        let sheet = try fixture.sheet([file])
        let tree = try #require(try sheet.waitForTree { $0.contains { $0.name.contains("4096 bytes") } })
        try sheet.press("Return")
        try sheet.press("ctrl+Return")
        let after = try #require(try sheet.waitForTree { $0.contains { $0.name.hasPrefix("To server") } })
        #expect(SheetWindow.button("Send", in: after)?.sensitive == false, "\(after)")
        #expect(tree.contains { $0.role == "label" && $0.name.contains("big.bin") && $0.name.contains("4096 bytes") })
        try sheet.press("Escape")
        #expect(sheet.finish().status == 130)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
        #expect(try fixture.inboxEntries().isEmpty)
    }

    @Test("a server that stops answering: the share goes to share-daemon, the sheet says so (exit 3)")
    func handOffToDaemon() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let server = fixture.sandbox.server.pid
        let sheet = try fixture.sheet(["--text", "for the daemon"], environment: ["SHAREKIT_HTTP_STALL_SECONDS": "1"])
        _ = try sheet.waitForTree { $0.contains { $0.name == "Text: for the daemon" } }
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        try sheet.press("Return", "ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 3, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("share-daemon sends it to server > Gateway > resume the gateway"))
        let entries = try fixture.inboxEntries()
        #expect(entries.count == 1 && entries.first?.isLocked == false, "kept, unlocked for the daemon")
    }

    @Test("Escape during the send (as closing the window): the share goes to share-daemon at once, the sheet says so")
    func cancelDuringSendHandsOff() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let server = fixture.sandbox.server.pid
        let sheet = try fixture.sheet(["--text", "handed over"])
        _ = try sheet.waitForTree { $0.contains { $0.name == "Text: handed over" } }
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        try sheet.press("Return", "ctrl+Return")
        _ = try sheet.waitForTree { $0.contains { $0.name.hasPrefix("Sending to server > Gateway") } }
        try sheet.press("Escape")
        let outcome = sheet.finish()
        #expect(outcome.stdout.contains("share-daemon sends it to server > Gateway > resume the gateway"), "\(outcome)")
        let entries = try fixture.inboxEntries()
        #expect(entries.count == 1 && entries.first?.isLocked == false, "kept, unlocked for the daemon")
    }

    @Test("nobody logged in: the login form in the sheet, then the search, then the share")
    func loginForm() async throws {
        let fixture = try await SheetFixture(loggedIn: false)
        defer { fixture.close() }
        let sheet = try fixture.sheet(
            ["--text", "after the login"], environment: ["SHAREKIT_SERVER": fixture.sandbox.origin])
        let form = try #require(try sheet.waitForTree { $0.contains { $0.name == "Log in" } })
        #expect(form.contains { $0.name == "No account yet: log in to share." }, "\(form)")
        #expect(form.contains { $0.name == "User" && $0.focused }, "\(form)")
        try sheet.type("alex")
        try sheet.press("Tab")
        try sheet.type("wrong-password")
        try sheet.press("Return")
        // The server's refusal, in the form; the password field is empty again and keeps the focus.
        let refused = try sheet.waitForTree { tree in
            tree.contains { $0.role == "label" && $0.name.lowercased().contains("password") && $0.name != "Password" }
        }
        #expect(refused?.contains { $0.name == "Log in" } == true)
        try sheet.type("alex-demo-pass")
        try sheet.press("Return")
        _ = try sheet.waitForTree { $0.contains { $0.focused && $0.name == "Search" } }
        try sheet.type("resume")
        _ = try sheet.waitForTree { $0.contains { $0.name == "server > Gateway > resume the gateway" } }
        try sheet.press("Return", "ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        #expect(try await fixture.messages(thread: "t1").contains { $0.text == "after the login" })
    }

    @Test("share send --desktop on a display opens the sheet (share-sheet on PATH); the file goes where it chose")
    func desktopLaunchOpensSheet() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        try fixture.remember(Self.resumeTheGateway)
        let file = try Self.textFile("from-files.txt", in: fixture)
        let path = BuiltProducts.directory + ":/usr/bin:/bin"
        let sheet = try fixture.shareOpeningSheet(["send", "--desktop", file], environment: ["PATH": path])
        // `share` handed the share to the sheet and ended at once; the sheet asks.
        #expect(sheet.finish().status == 0)
        _ = try sheet.waitForTree { $0.contains { $0.name.hasPrefix("from-files.txt") } }
        try sheet.press("Return", "ctrl+Return")
        #expect(try sheet.waitUntilClosed())
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.contains { $0.files == ["from-files.txt"] }, "\(messages)")
    }

    @Test(
        "share desktop-entry --install: in the menu (no NoDisplay), and gio lists it for image/png from XDG_DATA_HOME"
    )
    func desktopEntryInstalled() throws {
        let data = try TemporaryDirectory(prefix: "share-sheet-xdg")
        defer { data.remove() }
        let entry = try runProcess(BuiltProducts.path("share"), ["desktop-entry"])
        #expect(!entry.stdout.contains("NoDisplay"))
        let environment = [
            "XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": "/usr/share",
            "PATH": BuiltProducts.directory + ":/usr/bin:/bin", "XDG_CONFIG_HOME": data.file("config"),
        ]
        let installed = try runProcess(
            BuiltProducts.path("share"), ["desktop-entry", "--install", "--json"], environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let path = data.file("applications/sharekit.desktop")
        let answer = JSONValue(strictJSON: Array(installed.stdout.utf8))
        #expect(
            answer?["path"] == .string(path) && answer?["mime_cache_updated"] == .bool(true), "\(installed.stdout)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == entry.stdout, "the installed entry is the printed one")
        // TryExec=share: GIO lists the entry only where `share` is on PATH.
        let listed = try runProcess("/usr/bin/gio", ["mime", "image/png"], environment: environment)
        #expect(listed.stdout.contains("sharekit.desktop"), "\(listed.stdout) \(listed.stderr)")
        // A second install replaces the entry; nowhere to install is a clear failure.
        let again = try runProcess(
            BuiltProducts.path("share"), ["desktop-entry", "--install"], environment: environment)
        #expect(again.status == 0 && again.stdout == "installed the desktop entry: \(path)\n", "\(again.stdout)")
        let nowhere = try runProcess(
            BuiltProducts.path("share"), ["desktop-entry", "--install"],
            environment: ["XDG_DATA_HOME": "relative", "HOME": "", "PATH": "/usr/bin:/bin"])
        #expect(nowhere.status == 1 && nowhere.stderr.contains("nowhere to install the entry"), "\(nowhere.stderr)")
    }

    @Test(
        "--clipboard and --selection: the text another program copied (or selected) is the share",
        arguments: [("clipboard", "--clipboard"), ("primary", "--selection")])
    func copiedText(which: String, option: String) async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        let desktop = try #require(DesktopSession.current)
        let copied = "copied with \(option) \(UUID().uuidString.prefix(8))"
        // Another program holds the selection, as an editor does after a copy.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("clipboard-owner.py").path
        let owner = try HelperProcess(
            executable: "/usr/bin/python3", [script, which, copied], environment: desktop.environment)
        defer {
            owner.kill(SIGTERM)
            _ = owner.finish()
        }
        #expect(owner.waitForLine(limit: .seconds(30), where: { $0 == "ready" }) != nil)
        try fixture.remember(Self.resumeTheGateway)
        let sheet = try fixture.sheet([option])
        _ = try #require(try sheet.waitForTree { $0.contains { $0.name == "Text: \(copied)" } })
        try sheet.press("Return")
        _ = try sheet.waitForTree { SheetWindow.button("Send", in: $0)?.sensitive == true }
        try sheet.press("ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let messages = try await fixture.messages(thread: Self.resumeTheGateway.id)
        #expect(messages.contains { $0.text == copied }, "\(messages)")
    }

    @Test("with a Matrix account: typing finds the rooms (prefix first), Enter on one sends the text into it")
    func matrixRoom() async throws {
        let fixture = try MatrixShareFixture()
        defer { fixture.close() }
        let sam = try MatrixPeer.register(on: fixture.server, prefix: "sam", password: "sam-pass")
        let team = try sam.createRoom(name: "Team chat", invite: [fixture.person.userID])
        let design = try sam.createRoom(name: "Design team", invite: [fixture.person.userID])
        for room in [team, design] { try fixture.person.join(room) }
        let login = try fixture.login()
        try #require(login.status == 0, "\(login.stderr)")
        let sheet = try SheetWindow(["--text", "from the sheet to Matrix"], environment: fixture.environment)
        _ = try sheet.waitForTree { $0.contains { $0.focused && $0.name == "Search" } }
        try sheet.type("team")
        let found = try #require(
            try sheet.waitForTree { tree in
                tree.contains { $0.name.contains("Team chat") } && tree.contains { $0.name.contains("Design team") }
            })
        let rows = found.filter { $0.role == "list item" }.map(\.name)
        // "Design team" sorts first by name; "Team chat" begins with the word typed.
        #expect(rows.first?.contains("Team chat") == true, "\(rows)")
        try sheet.press("Return")
        _ = try sheet.waitForTree { SheetWindow.button("Send", in: $0)?.sensitive == true }
        try sheet.press("ctrl+Return")
        let outcome = sheet.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let bodies = try sam.messages(in: team).compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
        #expect(bodies == ["from the sheet to Matrix"])
        #expect(try sam.messages(in: design).isEmpty)
    }

    @Test("in German: the controls' names and texts from the CLI's German table")
    func german() async throws {
        let fixture = try await SheetFixture()
        defer { fixture.close() }
        let sheet = try fixture.sheet(["--text", "Hallo"], environment: TestLocale.german)
        let tree = try #require(try sheet.waitForTree { $0.contains { $0.name == "Text: Hallo" } })
        #expect(tree.contains { $0.role == "entry" && $0.name == "Suchen" && $0.focused }, "\(tree)")
        #expect(SheetWindow.button("Senden", in: tree)?.sensitive == false, "\(tree)")
        #expect(SheetWindow.button("Abbrechen", in: tree) != nil, "\(tree)")
        #expect(tree.contains { $0.name == "Kommentar" }, "\(tree)")
        try sheet.press("Escape")
        #expect(sheet.finish().status == 130)
    }

    @Test("share does not link GTK; share-sheet does")
    func shareLinksNoGTK() throws {
        let share = try runProcess("/usr/bin/ldd", [BuiltProducts.path("share")])
        #expect(share.status == 0)
        #expect(!share.stdout.contains("libgtk"), "\(share.stdout)")
        let sheet = try runProcess("/usr/bin/ldd", [BuiltProducts.path("share-sheet")])
        #expect(sheet.stdout.contains("libgtk-4"), "the check above would pass for any program without it")
    }

    /// A plain text file in the test's home (the demo server takes text/plain, not arbitrary bytes).
    static func textFile(_ name: String, in fixture: SheetFixture, lines: Int = 100) throws -> String {
        let path = fixture.sandbox.home.file(name)
        try Data(String(repeating: "a line of notes for the thread\n", count: lines).utf8).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    /// The demo's server with one channel and the smallest parts (1 KiB): an upload of many parts.
    static var smallPartsSeed: [String: Any] {
        var seed = smallLimitSeed
        seed["limits"] = ["file_max_upload_bytes": 1_048_576, "message_max_attachments": 3, "upload_part_size": 1024]
        return seed
    }

    /// The demo's server with one channel and a 4 KiB file limit.
    static var smallLimitSeed: [String: Any] {
        [
            "users": [["username": "alex", "password": "alex-demo-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "server",
                    "channels": [
                        ["id": "c1", "name": "Gateway", "kind": "chat", "readers": ["alex"], "writers": ["alex"]]
                    ],
                ]
            ],
            "threads": [["id": "t1", "channel_id": "c1", "title": "resume the gateway"]],
            "limits": ["file_max_upload_bytes": 4096, "message_max_attachments": 3, "upload_part_size": 4096],
        ]
    }
}
