import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTargetStoreInterface
import ShareKitTestSupport
import Testing

/// `share completions` run in the shells themselves: bash and zsh
/// interactively on a pseudo-terminal (a person's Tab, what lands on the
/// command line), fish through `complete -C`. The values only `share`
/// knows (`--to`, the ids of `share inbox`) come from `share __complete`,
/// against a real server and a real share inbox.
@Suite("shell completions in bash, zsh and fish", .serialized)
struct ShellCompletionTests {
    /// The hidden command the scripts run for what only share knows.
    static let hidden = "__complete"

    /// The logged-in sandbox's environment, with the built `share` first on PATH.
    static func environment(_ base: [String: String], home: String) -> [String: String] {
        base.merging([
            "PATH": BuiltProducts.directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": home, "ZDOTDIR": home, "INPUTRC": "/dev/null", "XDG_CONFIG_HOME": home + "/config",
            "XDG_DATA_HOME": home + "/data", "TERM": "xterm", "HISTFILE": "/dev/null",
        ]) { $1 }
    }

    /// A folder `My Photos` (and nothing else starting with `My`) to complete in.
    static func photos(in home: TemporaryDirectory) throws -> String {
        let directory = home.file("work")
        try FileManager.default.createDirectory(
            atPath: directory + "/My Photos", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        return directory
    }

    @Test("a folder with a blank completes as one name with its slash, in bash, zsh and fish")
    func foldersWithBlanks() throws {
        let home = try TemporaryDirectory(prefix: "share-complete-files")
        defer { home.remove() }
        let directory = try Self.photos(in: home)
        let environment = Self.environment(TestLocale.english, home: home.path)

        let bash = try Shell.start(.bash, in: directory, environment: environment)
        defer { bash.close() }
        #expect(
            bash.complete("share send My", shows: "My\\ Photos/", then: "[send][My Photos/]"),
            "bash: \(bash.transcript)")
        let bashWords = try Shell.bashReply(["share", "send", "My"], in: directory, environment: environment)
        #expect(bashWords == ["My Photos"])

        let zsh = try Shell.start(.zsh, in: directory, environment: environment)
        defer { zsh.close() }
        // zsh shows the slash and takes it off again at Enter (its auto_remove_slash).
        #expect(
            zsh.complete("share send My", shows: "My\\ Photos/", then: "[send][My Photos]"), "zsh: \(zsh.transcript)")

        let fish = try Shell.fish("share send My", in: directory, environment: environment)
        #expect(fish == ["My Photos/"])
    }

    @Test("zsh lists an option's description as declared: thread:ID, not thread -ID")
    func zshDescriptions() throws {
        let home = try TemporaryDirectory(prefix: "share-complete-zsh")
        defer { home.remove() }
        let environment = Self.environment(TestLocale.english, home: home.path)
        let zsh = try Shell.start(.zsh, in: home.path, environment: environment)
        defer { zsh.close() }
        #expect(
            zsh.list("share send --t", shows: "thread:ID, channel:ID, new-post:CHANNEL_ID"), "zsh: \(zsh.transcript)")
        #expect(!zsh.transcript.contains("thread -ID"))
    }

    @Test("--to offers the recent targets of the account logged in to, never an id a shell would run")
    func recentTargets() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        for target in ["thread:t1", "channel:c1"] {
            let sent = try fixture.share(["send", "--text", "for the recents", "--to", target])
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        // What a hostile server could name a thread it lets the person write to.
        let recents = fixture.sandbox.assembly.recentTargets(
            of: SignedInAccount(origin: fixture.sandbox.origin, username: "alex"))
        try recents.record(ShareTarget(kind: .thread, id: "t9$(touch${IFS}pwned);x", displayPath: "server > evil"))
        try recents.record(ShareTarget(kind: .thread, id: "t8", displayPath: "server > \u{1B}]0;owned\u{07}title"))
        let home = fixture.home
        let environment = Self.environment(fixture.sandbox.environment, home: home.path)

        let printed = try fixture.share([Self.hidden, "targets"])
        #expect(printed.status == 0)
        #expect(
            printed.stdout
                == "thread:t8\tserver > \\u{1B}]0;owned\\u{07}title\nchannel:c1\tserver > Gateway\n"
                + "thread:t1\tserver > Gateway > resume the gateway\n")

        let bash = try Shell.start(.bash, in: home.path, environment: environment)
        defer { bash.close() }
        #expect(
            bash.complete("share send --to thr", shows: "thread:t", then: nil), "bash: \(bash.transcript)")
        #expect(
            try Shell.bashReply(["share", "send", "--to", ""], in: home.path, environment: environment).sorted() == [
                "channel:c1", "thread:t1", "thread:t8",
            ])
        // bash splits `thread:t1` at the colon; the completion joins it again and replaces only what follows.
        #expect(
            bash.complete("share send --text hi --to channel:", shows: "channel:c1 ", then: "[--to][channel:c1]"),
            "bash: \(bash.transcript)")
        #expect(
            bash.complete("share send --to=chan", shows: "--to=channel:c1 ", then: "[--to=channel:c1]"),
            "bash: \(bash.transcript)")

        let zsh = try Shell.start(.zsh, in: home.path, environment: environment)
        defer { zsh.close() }
        #expect(
            zsh.complete("share send --to chan", shows: "channel:c1", then: "[send][--to][channel:c1]"),
            "zsh: \(zsh.transcript)")
        #expect(
            zsh.list("share send --to thread:t", shows: "server > Gateway > resume the gateway"),
            "zsh: \(zsh.transcript)")

        let fish = try Shell.fish("share send --to ", in: home.path, environment: environment)
        #expect(
            fish.sorted() == [
                "channel:c1\tserver > Gateway", "thread:t1\tserver > Gateway > resume the gateway",
                "thread:t8\tserver > \\u{1B}]0;owned\\u{07}title",
            ])
        for transcript in [bash.transcript, zsh.transcript] + fish { #expect(!transcript.contains("t9;")) }
        #expect(!FileManager.default.fileExists(atPath: home.file("pwned")))

        // Logged out: nothing to offer, and no error on the line being edited.
        #expect(try fixture.share(["logout"]).status == 0)
        let after = try fixture.share([Self.hidden, "targets"])
        #expect(after.status == 0 && after.stdout.isEmpty && after.stderr.isEmpty)
        #expect(try Shell.fish("share send --to ", in: home.path, environment: environment).isEmpty)
    }

    @Test("share inbox show|retry|drop complete the ids share inbox list shows")
    func inboxIDs() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.share(["send", "--text", "later", "--to", "thread:t1", "--queue", "--json"])
        let id = try #require(
            ShareCLIFixture.json(queued)["inbox_entry"] as? String, "\(queued.stdout) \(queued.stderr)")
        let home = fixture.home
        let environment = Self.environment(fixture.sandbox.environment, home: home.path)

        // What `share inbox list` prints and a person types: the short id,
        // the id's random end (one share alone: its last 6 characters).
        let short = String(id.suffix(6))
        let listed = try fixture.share(["inbox", "list"])
        #expect(listed.stdout.contains(short), "\(listed.stdout)")

        let printed = try fixture.share([Self.hidden, "inbox-ids"])
        #expect(printed.status == 0)
        // The share went to the inbox without a lookup: its target is named as given.
        #expect(printed.stdout == "\(short)\tthread:t1\n")

        let bash = try Shell.start(.bash, in: home.path, environment: environment)
        defer { bash.close() }
        #expect(
            bash.complete("share inbox show \(short.prefix(3))", shows: short, then: "[inbox][show][\(short)]"),
            "bash: \(bash.transcript)")
        let zsh = try Shell.start(.zsh, in: home.path, environment: environment)
        defer { zsh.close() }
        #expect(
            zsh.complete("share inbox retry \(short.prefix(3))", shows: short, then: "[inbox][retry][\(short)]"),
            "zsh: \(zsh.transcript)")
        let fish = try Shell.fish("share inbox drop ", in: home.path, environment: environment)
        #expect(fish == ["\(short)\tthread:t1"])
    }

    @Test("share __complete without an account or a container prints nothing; an unknown kind is exit 2")
    func nothingToOffer() throws {
        let home = try TemporaryDirectory(prefix: "share-complete-empty")
        defer { home.remove() }
        let environment = [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home.file("keychain"),
            "SHAREKIT_CONTAINER_DIR": home.file("container"),
        ].merging(TestLocale.english) { $1 }
        for kind in ["targets", "inbox-ids"] {
            let result = try runProcess(
                BuiltProducts.path("share"), [Self.hidden, kind], environment: environment)
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(kind): \(result)")
        }
        let wrong = try runProcess(
            BuiltProducts.path("share"), [Self.hidden, "\u{1B}[2Jtargets"],
            environment: environment)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("name one of: targets, inbox-ids") && !wrong.stderr.contains("\u{1B}"))
        let help = try runProcess(BuiltProducts.path("share"), ["--help"], environment: environment)
        #expect(!help.stdout.contains(Self.hidden), "a hidden command")
    }
}

/// An interactive shell on a pseudo-terminal with share's completion
/// loaded and `share` itself replaced by a function that prints its
/// arguments (`[send][My Photos/]`), so that Enter shows what the
/// completion put on the line. The completion still runs the real
/// program (`command share __complete ...`).
final class Shell {
    enum Kind: String {
        case bash, zsh
    }

    let terminal: PseudoTerminalProcess
    let kind: Kind

    private init(_ terminal: PseudoTerminalProcess, kind: Kind) {
        self.terminal = terminal
        self.kind = kind
    }

    /// Where a shell is installed (PATH, then the usual places).
    static func path(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let places = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return places.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the shell in `directory` with the completion `share completions` prints for it.
    static func start(_ kind: Kind, in directory: String, environment: [String: String]) throws -> Shell {
        let executable = try #require(path(kind.rawValue), "\(kind.rawValue) is not installed (.ci/run installs it)")
        let script = directory + "/.share-completion." + kind.rawValue
        let printed = try runProcess(BuiltProducts.path("share"), ["completions", kind.rawValue])
        try printed.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let arguments = kind == .bash ? ["--norc", "--noprofile", "-i"] : ["-f", "-i"]
        let terminal = try PseudoTerminalProcess(
            executable, arguments, environment: environment, rows: 40, columns: 200)
        let shell = Shell(terminal, kind: kind)
        let setup =
            kind == .bash
            ? "cd '\(directory)' && source '\(script)' && share() { printf '[%s]' \"$@\"; echo; }; echo READY-$((6*7))"
            : "bindkey -e; autoload -Uz compinit && compinit -u -D && source '\(script)' && cd '\(directory)'"
                + " && share() { printf '[%s]' \"$@\"; echo }; echo READY-$((6*7))"
        terminal.send(setup + Keys.enter)
        guard terminal.waitForScreen({ $0.contains("READY-42") }) != nil else {
            shell.close()
            throw PseudoTerminalError("\(kind.rawValue) did not start: \(shell.transcript)")
        }
        return shell
    }

    /// Everything the terminal showed, without escape sequences and bells
    /// (bash rings in the middle of a word it completes in part).
    var transcript: String { Self.clean(terminal.screen) }

    /// A frame without bells.
    static func clean(_ frame: String) -> String { frame.replacingOccurrences(of: "\u{07}", with: "") }

    /// Types `line` and Tab, waits until `shows` appears, then (when
    /// `then` is given) presses Enter and waits for the function's line.
    /// - Returns: whether the expected texts came.
    func complete(_ line: String, shows: String, then printed: String?) -> Bool {
        let before = transcript.count
        terminal.send("\u{15}" + line + Keys.tab)
        guard terminal.waitForScreen({ String(Self.clean($0).dropFirst(before)).contains(shows) }) != nil else {
            return false
        }
        guard let printed else {
            terminal.send("\u{15}")
            return true
        }
        terminal.send(Keys.enter)
        return terminal.waitForScreen { String(Self.clean($0).dropFirst(before)).contains(printed) } != nil
    }

    /// Types `line` and asks for the list of matches (bash: Tab twice,
    /// zsh: Tab), and whether `shows` appears.
    func list(_ line: String, shows: String) -> Bool {
        let before = transcript.count
        terminal.send("\u{15}" + line + (kind == .bash ? Keys.tab + Keys.tab : Keys.tab))
        let seen = terminal.waitForScreen { String(Self.clean($0).dropFirst(before)).contains(shows) } != nil
        terminal.send("\u{15}")
        return seen
    }

    /// Ends the shell (killed if it does not end).
    func close() {
        terminal.send("\u{15}exit" + Keys.enter)
        _ = terminal.waitForExit(timeout: 10)
    }

    /// What bash's completion function puts in COMPREPLY for these words,
    /// with COMP_LINE and COMP_POINT set as bash sets them.
    static func bashReply(_ words: [String], in directory: String, environment: [String: String]) throws
        -> [String]
    {
        let script = try runProcess(BuiltProducts.path("share"), ["completions", "bash"]).stdout
        let file = directory + "/.share-completion-reply.bash"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }
        let line = words.joined(separator: " ")
        let program = """
            cd '\(directory)' && source '\(file)'
            COMP_WORDS=(\(quoted.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
            COMP_LINE='\(line)'; COMP_POINT=\(line.count)
            _share
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess(try #require(path("bash")), ["-c", program], environment: environment)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// What fish offers for `line` (`complete -C`), one candidate a line
    /// with its description after a tab.
    static func fish(_ line: String, in directory: String, environment: [String: String]) throws -> [String] {
        let executable = try #require(path("fish"), "fish is not installed (.ci/run installs it)")
        let script = try runProcess(BuiltProducts.path("share"), ["completions", "fish"]).stdout
        let file = directory + "/.share-completion.fish"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try runProcess(
            executable, ["--no-config", "-c", "cd '\(directory)'; and source '\(file)'; and complete -C '\(line)'"],
            environment: environment)
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
