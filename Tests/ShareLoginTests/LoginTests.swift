import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share login` as a process against `share-server`.
@Suite("share login")
struct LoginTests {
    @Test("--password-stdin: the parent session, the server and the username are stored; no secret is printed")
    func loginStoresParentSession() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let result = try fixture.login()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "logged in as alex at \(fixture.origin)\n")
        let parent = try #require(try fixture.stored(.parent))
        #expect(try await fixture.spaces(with: parent).status == 200, "the stored session works")
        #expect(
            try fixture.sandbox.assembly.accounts.current() == SignedInAccount(origin: fixture.origin, username: "alex")
        )
        for secret in try fixture.tokenTexts() + [LoginFixture.password] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        }
    }

    @Test("--json prints the server, the user and the session id")
    func loginJSON() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let result = try fixture.share(
            ["login", "--server", fixture.origin + "/", "--user", "alex", "--password-stdin", "--json"],
            stdin: LoginFixture.password)
        #expect(result.status == 0, "\(result.stderr)")
        let object = LoginFixture.json(result)
        #expect(object["status"] as? String == "logged_in")
        #expect(object["server"] as? String == fixture.origin, "the trailing slash is dropped")
        #expect(object["user"] as? String == "alex")
        #expect(object["session_id"] as? String == (try fixture.stored(.parent))?.sessionID)
    }

    @Test(
        "plain http to another machine is refused before any request (exit 2, names https); the opt-in lets it through")
    func insecureHTTP() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        // An IPv4-mapped address reaches this machine's server without being
        // a loopback name: what matters is that nothing is sent without the flag.
        let port = fixture.origin.split(separator: ":").last.map(String.init) ?? ""
        let remote = "http://[::ffff:7f00:1]:\(port)"
        let refused = try fixture.share(
            ["login", "--server", remote, "--user", "alex", "--password-stdin"], stdin: LoginFixture.password)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("https://") && refused.stderr.contains("--allow-insecure-http"))
        #expect(try fixture.stored(.parent) == nil)
        #expect(!fixture.sandbox.stopServer().contains("/auth/login"), "the password never left")
        let allowed = try fixture.share(
            ["login", "--server", remote, "--user", "alex", "--password-stdin", "--allow-insecure-http"],
            stdin: LoginFixture.password)
        #expect(allowed.status != 2, "the opt-in is not refused: \(allowed.stderr)")
        for loopback in ["http://localhost:1", "http://127.0.0.2:1", "http://[::1]:1"] {
            let local = try fixture.share(
                ["login", "--server", loopback, "--user", "alex", "--password-stdin"], stdin: LoginFixture.password)
            #expect(local.status == 1, "loopback http stays allowed (it fails to connect): \(local.stderr)")
        }
    }

    @Test(
        "http to a host that only looks like loopback (leading zeros, short forms, *.localhost) is refused before any byte"
    )
    func lookalikeLoopback() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let port = fixture.origin.split(separator: ":").last.map(String.init) ?? ""
        // `127.0.0.01` and `127.000.000.001` reach this server through the
        // resolver's octal reading, `127.1` and `foo.localhost` through its
        // own rules; `127.0.0.08` goes to DNS, which may answer anything.
        for host in ["127.0.0.01", "127.000.000.001", "127.1", "foo.localhost", "0127.0.0.1", "127.0.0.08"] {
            let refused = try fixture.share(
                ["login", "--server", "http://\(host):\(port)", "--user", "alex", "--password-stdin"],
                stdin: LoginFixture.password)
            #expect(refused.status == 2, "\(host): \(refused.stderr)")
            #expect(refused.stderr.contains("--allow-insecure-http"), "\(host): \(refused.stderr)")
        }
        #expect(try fixture.stored(.parent) == nil)
        #expect(!fixture.sandbox.stopServer().contains("/auth/login"), "the password never left")
    }

    @Test("a wrong password: exit 1, a clear message without the password, nothing stored")
    func wrongPassword() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let wrong = "not-the-password-7f3a"
        let result = try fixture.login(password: wrong)
        #expect(result.status == 1)
        #expect(result.stderr.contains("wrong username or password for alex at \(fixture.origin)"), "\(result.stderr)")
        #expect(!result.stdout.contains(wrong) && !result.stderr.contains(wrong))
        #expect(try fixture.stored(.parent) == nil)
        #expect(try fixture.sandbox.assembly.accounts.current() == nil)
    }

    @Test("Ctrl-C at the password prompt: echo is back on, exit 130, nothing sent or stored")
    func interruptedAtThePrompt() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["login", "--server", fixture.origin, "--user", LoginFixture.user],
            environment: fixture.sandbox.environment, controlling: true)
        let prompt = "Password for alex at \(fixture.origin): "
        #expect(terminal.waitForScreen { $0.contains(prompt) } != nil, "\(terminal.screen)")
        #expect(!terminal.echoes, "the password is not shown while it is typed")
        terminal.send("half-typed")
        terminal.send("\u{3}")  // Ctrl-C, as the terminal's line discipline turns it into SIGINT
        #expect(terminal.waitForExit() == 130, "\(terminal.screen)")
        #expect(terminal.echoes, "the person's terminal shows what they type again")
        #expect(!terminal.raw.contains("half-typed"))
        #expect(try fixture.stored(.parent) == nil)
        #expect(try fixture.sandbox.assembly.accounts.current() == nil)
    }

    @Test("the server cannot be reached: exit 1, cannot reach URL, nothing stored")
    func unreachable() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        _ = fixture.sandbox.stopServer()
        let result = try fixture.login()
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot reach \(fixture.origin)"), "\(result.stderr)")
        #expect(try fixture.stored(.parent) == nil)
        #expect(try fixture.sandbox.assembly.accounts.current() == nil)
    }

    @Test(
        "a --server that is not http(s)://host[:port], or no --user: exit 2 before any password is read",
        arguments: [
            ["--server", "ftp://127.0.0.1:1", "--user", "alex"],
            ["--server", "http://127.0.0.1:1/api", "--user", "alex"],
            ["--server", "127.0.0.1:8080", "--user", "alex"],
            ["--server", "http://u:p@127.0.0.1:1", "--user", "alex"],
            ["--server", "http://127.0.0.1:1"],
            ["--user", "alex"],
        ])
    func usage(_ arguments: [String]) throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let result = try fixture.share(["login", "--password-stdin"] + arguments, stdin: "x\n")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("run 'share login --help'"))
        #expect(try fixture.stored(.parent) == nil)
    }

    @Test("without --password-stdin and without a terminal: exit 1 and a hint, nothing stored")
    func noTerminal() throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        // setsid(1) detaches the process from any controlling terminal the test runner has.
        let result = try runProcess(
            "/usr/bin/setsid",
            ["-w", BuiltProducts.path("share"), "login", "--server", fixture.origin, "--user", "alex"],
            environment: fixture.sandbox.environment, stdin: LoginFixture.password + "\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("--password-stdin"), "\(result.stderr)")
        #expect(try fixture.stored(.parent) == nil)
    }

    @Test(
        "--help of login, logout and status documents the options and the exit codes",
        arguments: [
            ("login", "--password-stdin"), ("logout", "--server"), ("status", "--json"),
        ])
    func help(_ command: String, option: String) throws {
        let result = try runProcess(BuiltProducts.path("share"), [command, "--help"], environment: TestLocale.english)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: share \(command)"))
        #expect(result.stdout.contains(option) && result.stdout.contains("Exit codes:"))
    }
}
