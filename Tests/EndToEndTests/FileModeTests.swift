import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Every file and folder `share` and `share-daemon` create has an explicit
/// mode, 0600 and 0700, whatever the umask: run under `umask 000`, as real
/// processes, with their keychain, container, state and runtime folders at
/// their XDG places under a home of the test's own.
@Suite("file modes under umask 000")
struct FileModeTests {
    @Test("login, a send, a queued share, the daemon taking it over and its event feed: every path is 0600 or 0700")
    func umaskZero() async throws {
        let sandbox = try ClientSandbox(prefix: "file-mode-test")
        defer { sandbox.close() }
        let root = sandbox.home.file("root")
        let home = root + "/home"
        let runtime = root + "/run"
        // The runtime folder is the session's (systemd makes it 0700); the programs make everything below it.
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = TestLocale.english.merging([
            "HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_STATE_HOME": home + "/.local/state",
            "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": runtime, "SHAREKIT_KEYCHAIN": "file",
            "SHAREKIT_KEYCHAIN_DIR": "", "SHAREKIT_CONTAINER_DIR": "", "SHAREKIT_STATE_DIR": "",
            "SHAREKIT_RUNTIME_DIR": "",
        ]) { $1 }
        let file = sandbox.home.file("report.txt")
        try Data("quarterly numbers\n".utf8).write(to: URL(fileURLWithPath: file))

        func run(_ program: String, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
            try runProcess(
                "/bin/sh", ["-c", "umask 000 && exec \"$0\" \"$@\"", BuiltProducts.path(program)] + arguments,
                environment: environment, stdin: stdin)
        }
        let login = try run(
            "share", ["login", "--server", sandbox.origin, "--user", "alex", "--password-stdin"],
            stdin: "alex-demo-pass\n")
        #expect(login.status == 0, "\(login.stderr)")
        let sent = try run("share", ["send", file, "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let queued = try run("share", ["send", "--text", "for the daemon", "--to", "thread:t1", "--queue"])
        #expect(queued.status == 0, "\(queued.stderr)")

        // The daemon under the same umask: it takes the share over, sends it
        // and keeps the event feed's position before it says it is ready.
        let daemon = try HelperProcess(
            executable: "/bin/sh",
            [
                "-c", "umask 000 && exec \"$0\" \"$@\"", BuiltProducts.path("share-daemon"), "--interval", "0.2",
                "--verbose",
            ],
            environment: environment, mergeErrors: true)
        #expect(daemon.waitForLine { $0.contains("share-daemon: ready") } != nil)
        #expect(daemon.waitForLine { $0.contains("outbox: sent") } != nil)
        #expect(try run("share", ["status"]).status == 0)
        daemon.kill(SIGTERM)
        #expect(daemon.finish().status == 0)

        var seen: [String] = []
        for base in [home, runtime + "/sharekit"] {
            for relative in FileManager.default.subpaths(atPath: base) ?? [] {
                let path = base + "/" + relative
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                let mode = info.st_mode & 0o7777
                switch info.st_mode & S_IFMT {
                case S_IFDIR: #expect(mode == 0o700, "\(path) is \(String(mode, radix: 8))")
                case S_IFREG, S_IFSOCK: #expect(mode == 0o600, "\(path) is \(String(mode, radix: 8))")
                default: Issue.record("\(path): not a file or folder (\(String(info.st_mode, radix: 8)))")
                }
                seen.append(relative)
            }
        }
        for expected in [
            ".local/share/sharekit/keychain", ".local/share/sharekit/container/state.json",
            ".local/state/sharekit/outbox.db",
        ] {
            #expect(seen.contains(expected), "\(expected) was made: \(seen)")
        }
        // The event feed's position, one file per account.
        #expect(
            seen.contains { $0.hasPrefix(".local/state/sharekit/events-") && $0.hasSuffix(".cursor") },
            "the feed's position was kept: \(seen)")
    }
}
