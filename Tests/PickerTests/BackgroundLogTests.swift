import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The README's first five minutes on a terminal: `share-server ... &` and
/// `share-daemon &` write their logs to a file and say where in one line,
/// so the terminal the person goes on typing in is not flooded; `--verbose`
/// keeps them on the terminal; an error that stops them still reaches it.
@Suite("share-server and share-daemon on a terminal: logs in a file")
struct BackgroundLogTests {
    /// A home of its own, with the state directory the log goes to.
    static func environment(_ home: TemporaryDirectory) -> [String: String] {
        [
            "HOME": home.path, "XDG_STATE_HOME": home.file("state"), "TERM": "xterm",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    /// The terminal's text without escapes and carriage returns.
    static func text(_ terminal: PseudoTerminalProcess) -> String {
        PseudoTerminalProcess.stripEscapes(terminal.raw)
    }

    /// The origin of a `listening on ORIGIN` line.
    static func origin(_ text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("listening on ") }.map {
            String($0.dropFirst("listening on ".count)).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test(
        "share-server on a terminal, its --db in folders that do not exist yet: they are made 0700, the request log goes to $XDG_STATE_HOME/sharekit/share-server.log named in one line; --verbose keeps it on the terminal",
        .enabled(if: TestTool.available("curl"), "needs curl"), arguments: [false, true])
    func server(verbose: Bool) throws {
        let home = try TemporaryDirectory(prefix: "first-five-minutes")
        defer { home.remove() }
        // The README's `--db /tmp/sk/server.db`, on a machine without /tmp/sk.
        let database = home.file("sk/nested/server.db")
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share-server"),
            ["--listen", "127.0.0.1:0", "--db", database, "--seed", "demo"] + (verbose ? ["--verbose"] : []),
            environment: Self.environment(home))
        defer { kill(terminal.pid, SIGKILL) }
        let screen = terminal.waitForScreen { $0.contains("listening on http://") && $0.contains("demo people") }
        let origin = try #require(screen.flatMap(Self.origin), "share-server did not start: \(Self.text(terminal))")
        let probe = try runProcess(
            TestTool.path("curl") ?? "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", origin + "/ux-probe"])
        #expect(probe.stdout == "404")
        kill(terminal.pid, SIGTERM)
        #expect(terminal.waitForExit() == 0, "\(Self.text(terminal))")

        let shown = Self.text(terminal)
        let logPath = home.file("state/sharekit/share-server.log")
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        for folder in [home.file("sk"), home.file("sk/nested")] {
            let mode = (try? FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int) ?? nil
            #expect(mode == 0o700, "\(folder): \(String(mode ?? 0, radix: 8))")
        }
        if verbose {
            #expect(shown.contains("/ux-probe"), "--verbose: the request log is on the terminal: \(shown)")
            #expect(!shown.contains(logPath))
        } else {
            #expect(shown.contains("share-server: request log in \(logPath)"), "\(shown)")
            #expect(!shown.contains("/ux-probe"), "the request log flooded the terminal: \(shown)")
            #expect(log.contains("/ux-probe"), "the log file: \(log)")
            let mode = try FileManager.default.attributesOfItem(atPath: logPath)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test(
        "share-daemon on a terminal logs to daemon.log in its state directory, named in one line; not logged in, it says so on the terminal"
    )
    func daemon() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let stateDirectory = fixture.sandbox.assembly.daemonStateDirectory
        // Not verbose, even where the test run asks every program for its
        // most verbose log (tools/test's end-to-end phase).
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share-daemon"), [], environment: fixture.environment(["SHAREKIT_VERBOSE": ""]))
        defer { kill(terminal.pid, SIGKILL) }
        let ready = terminal.waitForScreen { $0.contains("share-daemon: ready") }
        #expect(ready != nil, "\(Self.text(terminal))")
        kill(terminal.pid, SIGTERM)
        #expect(terminal.waitForExit() == 0, "\(Self.text(terminal))")
        let shown = Self.text(terminal)
        let logPath = stateDirectory + "/daemon.log"
        #expect(shown.contains("share-daemon: logging to \(logPath)"), "\(shown)")
        #expect(!shown.contains("daemon: started (pid"), "the log flooded the terminal: \(shown)")
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("daemon: started (pid") && log.contains("daemon: stopped"), "the log file: \(log)")

        // Not logged in: the reason reaches the person, not only the file.
        let home = try TemporaryDirectory(prefix: "daemon-not-logged-in")
        defer { home.remove() }
        let lonely = try PseudoTerminalProcess(
            BuiltProducts.path("share-daemon"), [],
            environment: Self.environment(home).merging([
                "SHAREKIT_CONTAINER_DIR": home.file("container"), "SHAREKIT_VERBOSE": "",
            ]) { $1 })
        #expect(lonely.waitForExit() == 1)
        #expect(Self.text(lonely).contains("not logged in"), "\(Self.text(lonely))")
    }
}
