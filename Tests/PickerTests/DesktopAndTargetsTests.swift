import Foundation
import ShareKitClientTestSupport
import ShareKitIntake
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The repository's root (this file is Tests/PickerTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// `share targets` and the desktop integration (`contrib/desktop/sharekit.desktop`,
/// `share send --desktop`), as processes against share-server.
@Suite("share targets and the desktop entry")
struct DesktopAndTargetsTests {
    static let entryPath = repositoryRoot + "/contrib/desktop/sharekit.desktop"

    @Test(
        "the shipped desktop entry validates, takes URLs (%U), offers the concrete types of files, text and links, and is what share prints"
    )
    func desktopEntry() throws {
        let validation = try runProcess("/usr/bin/desktop-file-validate", [Self.entryPath])
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        #expect(validation.stdout.isEmpty && validation.stderr.isEmpty, "no hint or warning either")
        let text = try String(contentsOfFile: Self.entryPath, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let types = line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        #expect(types == OfferedContentTypes.all)
        #expect(!types.contains { $0.contains("*") || $0 == "application/octet-stream" })
        #expect(!types.contains { $0.hasPrefix("x-scheme-handler/") }, "opening every link is no share")
        for offered in ["text/plain", "text/uri-list", "text/x-uri", "image/jpeg", "application/pdf"] {
            #expect(types.contains(offered), "\(offered)")
        }
        // URLs, so that a web page handed over stays a link (with %F the desktop would download it).
        #expect(text.contains("\nExec=share send --desktop %U\n"))
        #expect(text.contains("\nX-KDE-Protocols=file,http,https\n"))
        let printed = try runProcess(BuiltProducts.path("share"), ["desktop-entry"], environment: TestLocale.english)
        #expect(printed.status == 0)
        #expect(printed.stdout == text, "regenerate with: share desktop-entry > contrib/desktop/sharekit.desktop")
    }

    @Test("share targets --json lists recent targets newest first after sends; search finds writable ones")
    func targetsAfterSends() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let empty = try fixture.share(["targets", "--json"])
        #expect(empty.status == 0 && empty.stdout == "[]\n")
        for target in ["thread:t1", "channel:c1", "thread:t1"] {
            let sent = try fixture.share(["send", "--text", "to \(target)", "--to", target])
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        let recent = try fixture.share(["targets", "--json"])
        #expect(
            Self.targets(recent) == ["thread:t1:server > Gateway > resume the gateway", "channel:c1:server > Gateway"])

        let search = try fixture.share(["targets", "--search", "ANNOUNCE", "--json"])
        #expect(search.status == 0 && Self.targets(search).isEmpty, "Announcements is read only for Alex")
        let ideas = try fixture.share(["targets", "--search", "ide"])
        #expect(ideas.stdout.contains("server > Ideas > new post\tnew-post:c2"))

        _ = fixture.sandbox.stopServer()
        let offline = try fixture.share(["targets", "--search", "gate"])
        #expect(offline.status == 1)
        #expect(offline.stderr.contains("cannot search"))
        let stillThere = try fixture.share(["targets"])
        #expect(stillThere.status == 0)
        #expect(stillThere.stdout.hasPrefix("server > Gateway > resume the gateway\tthread:t1\n"))
    }

    @Test("launched from the desktop, no terminal, no chooser: nothing kept even with a recent target; says how")
    func desktopNeverSendsUnasked() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let (notifier, log) = try Self.notifier(fixture)
        let photo = try fixture.file("photo.txt", "a picture of words\n")
        try fixture.remember(Demo.gateway)
        let result = try fixture.share(
            ["send", "--desktop", photo], environment: ["SHAREKIT_NOTIFY_COMMAND": notifier])
        #expect(result.status == 1)
        let said = try String(contentsOfFile: log, encoding: .utf8)
        #expect(said.contains("--urgency=critical") && said.contains("share send FILE"), "\(said)")
        #expect(try fixture.inboxEntries().isEmpty, "nothing went to the most recent target unasked")
        #expect(try await fixture.messages(channel: "c1").isEmpty)
    }

    @Test("launched from the desktop with a display and zenity: the chosen target gets the share")
    func desktopAsksWithChooser() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let (notifier, log) = try Self.notifier(fixture)
        try fixture.remember(Demo.gateway)
        try fixture.remember(Demo.resumeTheGateway)
        let bin = fixture.sandbox.home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let asked = fixture.sandbox.home.file("zenity.log")
        // The person picks the second row: the channel, not the most recent thread.
        try Self.script("printf '%s\\n' \"$@\" > \(asked)\necho channel:c1", at: bin + "/zenity")
        let file = try fixture.file("chosen.txt", "for the channel\n")
        let result = try fixture.share(
            ["send", "--desktop", file],
            environment: ["SHAREKIT_NOTIFY_COMMAND": notifier, "DISPLAY": ":0", "PATH": bin])
        #expect(result.status == 0, "\(result.stderr)")
        let question = try String(contentsOfFile: asked, encoding: .utf8)
        #expect(question.contains("--list") && question.contains("server > Gateway > resume the gateway"))
        #expect(try await fixture.messages(channel: "c1").map(\.files) == [["chosen.txt"]])
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("ShareKit: shared"))

        try Self.script("exit 1", at: bin + "/zenity")
        let cancelled = try fixture.share(
            ["send", "--desktop", file],
            environment: ["SHAREKIT_NOTIFY_COMMAND": notifier, "DISPLAY": ":0", "PATH": bin])
        #expect(cancelled.status == 130)
        #expect(try fixture.inboxEntries().isEmpty)
        #expect(try await fixture.messages(channel: "c1").count == 1, "cancelling the chooser shares nothing")
    }

    @Test("handed a web URL, a file:// URL and a .uri-list file of links: links in the text, only the file attached")
    func desktopHandsOverLinks() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let (notifier, log) = try Self.notifier(fixture)
        let photo = try fixture.file("photo one.txt", "a picture of words\n")
        let photoURL = "file://" + photo.replacingOccurrences(of: " ", with: "%20")
        // A drag of two links saved as a file: RFC 2483, CRLF, with a comment.
        let list = try fixture.file(
            "dropped-links.uri-list",
            "# links from the browser\r\nhttps://example.com/a?x=1\r\nhttps://example.com/b\r\n")
        let result = try fixture.share(
            ["send", "--to", "thread:t1", "--desktop", "https://example.com/page", photoURL, list],
            environment: ["SHAREKIT_NOTIFY_COMMAND": notifier])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        let message = try #require(messages.first { $0.text.contains("https://example.com/page") }, "\(messages)")
        #expect(message.files == ["photo one.txt"], "the links are not files")
        for link in ["https://example.com/page", "https://example.com/a?x=1", "https://example.com/b"] {
            #expect(message.text.contains(link), "\(message.text)")
        }
        #expect(!message.text.contains("links from the browser"), "a comment of the list is not shared")
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("ShareKit: shared"))

        // A note with a colon is not a list of links: it stays a file.
        let note = try fixture.file("note.txt", "todo: buy milk\nhttps://example.com/c\n")
        let kept = try fixture.share(
            ["send", "--to", "thread:t1", "--desktop", note], environment: ["SHAREKIT_NOTIFY_COMMAND": notifier])
        #expect(kept.status == 0, "\(kept.stderr)")
        let noted = try await fixture.messages(thread: "t1").first { $0.files == ["note.txt"] }
        #expect(noted != nil && noted?.text.contains("https://example.com/c") == false)
    }

    @Test("opened in a terminal by the desktop entry: the picker, then a notification that says where it went")
    func desktopInTerminal() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.gateway)
        let (notifier, log) = try Self.notifier(fixture)
        let file = try fixture.file("c.txt", "z\n")
        let share = try fixture.picker(["send", "--desktop", file], environment: ["SHAREKIT_NOTIFY_COMMAND": notifier])
        #expect(share.waitForScreen { $0.contains("Recent targets:") } != nil, "\(share.screen)")
        share.send(Keys.tab + Keys.tab + Keys.enter + Keys.enter)
        #expect(share.waitForExit() == 0, "\(share.raw)")
        let notification = try String(contentsOfFile: log, encoding: .utf8)
        // The body is notification markup: the display path's `>` is written as an entity.
        #expect(notification.contains("ShareKit: shared") && notification.contains("sent to server &gt; Gateway"))
        #expect(try await fixture.messages(channel: "c1").map(\.files) == [["c.txt"]])
    }

    @Test("without notify-send the outcome goes to stderr")
    func desktopWithoutNotifier() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let file = try fixture.file("a.txt", "x\n")
        let result = try fixture.share(["send", "--desktop", file], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("ShareKit: not shared: Nothing was shared"), "\(result.stderr)")
    }

    @Test("with a display and $TERMINAL, the picker opens in the terminal emulator")
    func desktopOpensTerminal() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let log = fixture.sandbox.home.file("terminal.log")
        let terminal = fixture.sandbox.home.file("fake-terminal")
        try Self.script("printf '%s\\n' \"$@\" > \(log).tmp && mv \(log).tmp \(log)", at: terminal)
        let file = try fixture.file("b.txt", "y\n")
        let result = try fixture.share(
            ["send", "--desktop", file], environment: ["DISPLAY": ":0", "TERMINAL": terminal])
        #expect(result.status == 0, "\(result.stderr)")
        let arguments = try Self.waitForFile(log).split(separator: "\n").map(String.init)
        #expect(arguments.first == "-e")
        #expect(arguments.dropFirst(2) == ["send", "--desktop", file])
        #expect(arguments.dropFirst().first.map { URL(fileURLWithPath: $0).lastPathComponent } == "share")
    }

    // MARK: - Helpers

    static func targets(_ result: ProcessResult) -> [String] {
        let array = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: String]] ?? []
        return array.map { "\($0["kind"] ?? ""):\($0["id"] ?? ""):\($0["display_path"] ?? "")" }
    }

    /// A notifier that appends its arguments to a log, one per line.
    static func notifier(_ fixture: PickerFixture) throws -> (command: String, log: String) {
        let log = fixture.sandbox.home.file("notifications.log")
        let command = fixture.sandbox.home.file("fake-notify")
        try script("printf '%s\\n' \"$@\" >> \(log)", at: command)
        return (command, log)
    }

    static func script(_ body: String, at path: String) throws {
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o700)
    }

    /// The terminal emulator is started, not waited for: its log appears (atomically, by rename) later.
    static func waitForFile(_ path: String) throws -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        defer { close(descriptor) }
        _ = inotify_add_watch(descriptor, directory, UInt32(IN_MOVED_TO))
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: path) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 10_000) > 0 { _ = read(descriptor, &buffer, buffer.count) } else { break }
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
