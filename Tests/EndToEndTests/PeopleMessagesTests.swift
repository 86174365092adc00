import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The messages a person reads say what happened in their words, what was
/// kept and what to do; operation names (`createMessage:`, `/auth/login:`)
/// and the words of libcurl, OpenSSL and libmicrohttpd go to `--verbose`
/// and the log. German covers them too.
@Suite("messages for people")
struct PeopleMessagesTests {
    /// Words of the machinery that a person's message never shows.
    static let machinery = [
        "createMessage", "createUpload", "listSpaces", "/auth/", "Couldn't connect", "Failed to connect",
        "OpenSSL", "SSL routines", "MHD_", "bind to port", "\\n",
    ]

    static func machineryIn(_ text: String) -> [String] { machinery.filter { text.contains($0) } }

    @Test("a target that does not exist: the suggestions are lines of their own, not a literal \\n")
    func suggestionsOnLines() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "hi", "--to", "server > Gatway"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(!result.stderr.contains("\\n"), "\(result.stderr)")
        #expect(result.stderr.contains("\n  server > Gateway\n"), "\(result.stderr)")
        let german = try fixture.share(
            ["send", "--text", "hi", "--to", "Gateway"], environment: TestLocale.german)
        #expect(
            !german.stderr.contains("\\n") && german.stderr.contains("Meintest du:\n  server > "), "\(german.stderr)")
    }

    @Test("a server that cannot be reached: what was kept and what to do, the transport's words only with --verbose")
    func unreachableServer() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        _ = fixture.sandbox.stopServer()
        let path = try fixture.sandbox.writeFile("notes.txt", size: 1000)
        // What a person reads without asking for more: tools/test runs the
        // end-to-end suites with SHAREKIT_VERBOSE=1, which is --verbose.
        let quiet = ["SHAREKIT_VERBOSE": ""]
        let sent = try fixture.share(["send", path, "--to", "thread:t1"], environment: quiet)
        #expect(sent.status == 3, "\(sent.stdout) \(sent.stderr)")
        let said = sent.stdout + sent.stderr
        #expect(Self.machineryIn(said).isEmpty, "\(said)")
        #expect(said.contains("did not get through") && said.contains("share-daemon"), "\(said)")

        let text = try fixture.share(["send", "--text", "again", "--to", "thread:t1"], environment: quiet)
        #expect(text.status == 3)
        #expect(Self.machineryIn(text.stdout + text.stderr).isEmpty, "\(text.stdout)")
        #expect(text.stdout.contains("the server could not be reached"), "\(text.stdout)")
        // The transport's words are there for whoever asks for them.
        let verbose = try fixture.share(["send", "--text", "once more", "--to", "thread:t1", "--verbose"])
        #expect(verbose.stderr.contains("Couldn't connect"), "\(verbose.stderr)")

        let list = try fixture.share(["inbox", "list"], environment: quiet)
        #expect(Self.machineryIn(list.stdout).isEmpty, "\(list.stdout)")
        #expect(list.stdout.contains("could not be reached"), "\(list.stdout)")
        let german = try fixture.share(["inbox", "list"], environment: TestLocale.german)
        #expect(german.stdout.contains("der Server war nicht erreichbar"), "\(german.stdout)")
        #expect(!german.stdout.contains("could not be reached"), "\(german.stdout)")

        let targets = try fixture.share(["targets", "--search", "gate"])
        #expect(targets.status == 1)
        #expect(Self.machineryIn(targets.stderr).isEmpty, "\(targets.stderr)")
    }

    @Test("share login over https to a server that speaks http: said in words, not OpenSSL's")
    func tlsToPlainServer() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let https = fixture.server.origin.replacingOccurrences(of: "http://", with: "https://")
        let login = try fixture.share(
            ["login", "--server", https, "--user", "alex", "--password-stdin"], stdin: "alex-demo-pass\n")
        #expect(login.status == 1, "\(login.stderr)")
        #expect(Self.machineryIn(login.stderr).isEmpty, "\(login.stderr)")
        #expect(login.stderr.contains("secure connection"), "\(login.stderr)")
    }

    @Test("share-server on a port another program holds: names the port and what to do")
    func busyPort() async throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0 && listen(holder, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let directory = try TemporaryDirectory(prefix: "busy-port")
        defer { directory.remove() }
        let result = try runProcess(
            BuiltProducts.path("share-server"),
            ["--listen", "127.0.0.1:\(port)", "--db", directory.file("server.db"), "--seed", "demo"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(Self.machineryIn(result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:\(port)") && result.stderr.contains("in use"), "\(result.stderr)")
    }

    @Test("German: the sent line and the bar's ETA on a terminal, share-daemon --help and its notifications")
    func germanLeftovers() async throws {
        let fixture = try await ShareCLIFixture(seed: SendInterruptTests.slowUploadSeed)
        defer { fixture.close() }
        let path = try fixture.sandbox.writeFile("big.bin", size: 4 * 1024 * 1024)
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", path, "--to", "thread:t1"],
            environment: fixture.sandbox.environment.merging(TestLocale.german) { $1 }, columns: 120)
        #expect(terminal.waitForExit(timeout: 120) == 0, "\(terminal.raw)")
        let screen = PseudoTerminalProcess.stripEscapes(terminal.raw)
        #expect(screen.contains("gesendet an server > Gateway"), "\(screen)")
        #expect(!screen.contains("sent to") && !screen.contains("ETA"), "\(screen)")

        let help = try runProcess(
            BuiltProducts.path("share-daemon"), ["--help"],
            environment: fixture.sandbox.environment.merging(TestLocale.german) { $1 })
        #expect(help.status == 0)
        #expect(help.stdout.contains("Aufruf") && help.stdout.contains("Exit-Codes"), "\(help.stdout)")

        _ = try fixture.share(["send", "--text", "später", "--to", "thread:t1", "--queue"])
        let log = fixture.home.file("notifications.log")
        let command = fixture.home.file("fake-notify")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\n".utf8).write(to: URL(fileURLWithPath: command))
        chmod(command, 0o700)
        let pass = try runProcess(
            BuiltProducts.path("share-daemon"), ["--once"],
            environment: fixture.sandbox.environment.merging(TestLocale.german) { $1 }
                .merging(["SHAREKIT_NOTIFY_COMMAND": command]) { $1 })
        #expect(pass.status == 0, "\(pass.stderr)")
        let notifications = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(notifications.contains("ShareKit: gesendet\ngesendet an "), "\(notifications)")
    }
}
