import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What a desktop launch may read and send, as processes against
/// share-server: only what the person handed over. A file that lists other
/// files never makes a share of them, no file where keys and tokens live is
/// ever read, and nothing after `--desktop` is an option.
@Suite("the desktop hands over only what the person chose")
struct DesktopHandoverSecurityTests {
    /// A home folder with a fake SSH key in it, the keychain's items, and
    /// the bytes each holds (what must never reach the server).
    struct Secrets {
        let home: String
        let sshKey: String
        /// Every secret file and its bytes, read before the share.
        let files: [(path: String, bytes: Data)]

        init(_ fixture: PickerFixture) throws {
            // The container's state exists, as after any share (recent targets).
            try fixture.remember(Demo.gateway)
            home = fixture.sandbox.home.file("home")
            let ssh = home + "/.ssh"
            try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
            sshKey = ssh + "/id_ed25519"
            let marker = "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-\(UUID().uuidString)\n"
            try Data(marker.utf8).write(to: URL(fileURLWithPath: sshKey))
            // The keychain: the device key, the parent's and the child's tokens.
            let keychain = try #require(fixture.sandbox.environment["SHAREKIT_KEYCHAIN_DIR"])
            let items = (FileManager.default.subpaths(atPath: keychain) ?? []).filter { $0.hasSuffix(".item") }
            #expect(items.count >= 3, "device key and two token pairs: \(items)")
            var files = [(sshKey, try Data(contentsOf: URL(fileURLWithPath: sshKey)))]
            for item in items {
                let path = keychain + "/" + item
                files.append((path, try Data(contentsOf: URL(fileURLWithPath: path))))
            }
            self.files = files
        }

        /// The environment of a share run from this home.
        var environment: [String: String] { ["HOME": home] }

        /// `file://` lines naming every secret and the container's state.
        func fileLines(container: String) -> String {
            (files.map(\.path) + [container + "/state.json"]).map { URL(fileURLWithPath: $0).absoluteString + "\r\n" }
                .joined()
        }
    }

    /// Every file the server keeps (database, uploads), read as bytes.
    static func serverHolds(_ fixture: PickerFixture) -> [Data] {
        let directory = fixture.sandbox.server.directory.path
        return (FileManager.default.subpaths(atPath: directory) ?? []).compactMap {
            try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))
        }
    }

    /// Nothing the server keeps contains a secret's bytes.
    static func expectNoSecret(
        on fixture: PickerFixture, _ secrets: Secrets, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let held = serverHolds(fixture)
        #expect(!held.isEmpty, sourceLocation: sourceLocation)
        for (path, bytes) in secrets.files {
            #expect(
                !held.contains { $0.range(of: bytes) != nil }, "the server holds \(path)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a cat.jpg that lists the SSH key, the keychain and the state is shared as itself; none of them reaches the server"
    )
    func disguisedList() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let secrets = try Secrets(fixture)
        let (notifier, log) = try DesktopAndTargetsTests.notifier(fixture)
        let container = fixture.sandbox.assembly.container.rootPath
        let lines = secrets.fileLines(container: container)
        let cat = try fixture.file("cat.jpg", lines)
        let shared = try fixture.share(
            ["send", "--to", "thread:t1", "--desktop", cat],
            environment: secrets.environment.merging(["SHAREKIT_NOTIFY_COMMAND": notifier]) { $1 })
        #expect(shared.status == 0, "\(shared.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.map(\.files) == [["cat.jpg"]], "only the file that was handed over")
        Self.expectNoSecret(on: fixture, secrets)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("ShareKit: shared"))
    }

    @Test("a .uri-list that names local files is refused (exit 4, says why); nothing is read or sent")
    func listNamingFiles() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let secrets = try Secrets(fixture)
        let (notifier, log) = try DesktopAndTargetsTests.notifier(fixture)
        let container = fixture.sandbox.assembly.container.rootPath
        let list = try fixture.file(
            "dropped.uri-list", "https://example.com/a\r\n" + secrets.fileLines(container: container))
        let result = try fixture.share(
            ["send", "--to", "thread:t1", "--desktop", list],
            environment: secrets.environment.merging(["SHAREKIT_NOTIFY_COMMAND": notifier]) { $1 })
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("dropped.uri-list: a list of links is shared as its links only"))
        #expect(result.stderr.contains(URL(fileURLWithPath: secrets.sshKey).absoluteString), "\(result.stderr)")
        let said = try String(contentsOfFile: log, encoding: .utf8)
        #expect(said.contains("--urgency=critical") && said.contains("ShareKit: not shared"), "\(said)")
        #expect(try await fixture.messages(thread: "t1").isEmpty)
        #expect(try fixture.inboxEntries().isEmpty)
        Self.expectNoSecret(on: fixture, secrets)
    }

    @Test("a link named like a photo, the key itself or a keychain item: refused as protected (exit 4), nothing sent")
    func protectedFiles() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let secrets = try Secrets(fixture)
        let (notifier, _) = try DesktopAndTargetsTests.notifier(fixture)
        let photo = fixture.sandbox.home.file("holiday.jpg")
        try FileManager.default.createSymbolicLink(atPath: photo, withDestinationPath: secrets.sshKey)
        let keychainItem = try #require(secrets.files.last?.path)
        let state = fixture.sandbox.assembly.container.rootPath + "/state.json"
        for item in [photo, URL(fileURLWithPath: secrets.sshKey).absoluteString, keychainItem, state] {
            let result = try fixture.share(
                ["send", "--to", "thread:t1", "--desktop", item],
                environment: secrets.environment.merging(["SHAREKIT_NOTIFY_COMMAND": notifier]) { $1 })
            #expect(result.status == 4, "\(item): \(result.stderr)")
            #expect(
                result.stderr.contains("where keys, passwords or tokens are kept"), "\(item): \(result.stderr)")
        }
        // Not only from the desktop: share send itself, and standard input redirected from the key.
        let direct = try fixture.share(
            ["send", secrets.sshKey, "--to", "thread:t1", "--json"], environment: secrets.environment)
        #expect(direct.status == 4)
        let object = (try? JSONSerialization.jsonObject(with: Data(direct.stdout.utf8))) as? [String: Any]
        #expect(object?["code"] as? String == "protected_file", "\(direct.stdout)")
        let redirected = try runProcess(
            "/bin/sh",
            ["-c", "exec \"$0\" send - --to thread:t1 < \"$1\"", BuiltProducts.path("share"), secrets.sshKey],
            environment: fixture.environment(secrets.environment))
        #expect(redirected.status == 4, "\(redirected.stderr)")
        #expect(try await fixture.messages(thread: "t1").isEmpty)
        #expect(try fixture.inboxEntries().isEmpty)
        Self.expectNoSecret(on: fixture, secrets)
    }

    @Test(
        "after --desktop every argument is a file: --to=…, --server=…, --help, --queue and - are files of those names")
    func optionLookingFiles() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let (notifier, _) = try DesktopAndTargetsTests.notifier(fixture)
        let folder = fixture.sandbox.home.file("downloads")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A file name holds no `/`: these are what an option of share send can look like then.
        let names = ["--to=channel:c1", "--server=evil.example", "--help", "--queue", "-"]
        for name in names {
            try Data("a file called \(name)\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        // The desktop runs the entry in the folder of the files it hands over.
        let result = try runProcess(
            "/usr/bin/env",
            ["-C", folder, BuiltProducts.path("share"), "send", "--to", "thread:t1", "--desktop"] + names,
            environment: fixture.environment(["SHAREKIT_NOTIFY_COMMAND": notifier]), stdin: "")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.map(\.files) == [names], "\(messages) \(result.stdout) \(result.stderr)")
        #expect(try await fixture.messages(channel: "c1").isEmpty, "--to=channel:c1 was a file")
        #expect(try fixture.inboxEntries().isEmpty, "not queued: --queue was a file")
    }

    @Test("a thread title with markup reaches the desktop notification as text: no link, no image")
    func notificationMarkup() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let (notifier, log) = try DesktopAndTargetsTests.notifier(fixture)
        // Another member starts a post with a title of markup (here with Alex's session: the title is the server's now).
        let title = #"<a href="https://evil.example/x">open me</a><img src="https://evil.example/p.png"> & more"#
        let started = try fixture.share(
            ["send", "--text", "first", "--to", "new-post:c2", "--new-post", title, "--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(started.stdout.utf8))) as? [String: Any]
        let thread = try #require(object?["thread_id"] as? String, "\(started.stdout) \(started.stderr)")
        let file = try fixture.file("note.txt", "words\n")
        let result = try fixture.share(
            ["send", "--to", "thread:" + thread, "--desktop", file], environment: ["SHAREKIT_NOTIFY_COMMAND": notifier])
        #expect(result.status == 0, "\(result.stderr)")
        let said = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            said.contains(
                "&lt;a href=&quot;https://evil.example/x&quot;&gt;open me&lt;/a&gt;&lt;img "
                    + "src=&quot;https://evil.example/p.png&quot;&gt; &amp; more"), "\(said)")
        #expect(!said.contains("<a ") && !said.contains("<img"), "\(said)")
    }
}
