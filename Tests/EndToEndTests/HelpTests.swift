import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Help that finds you: every command and subcommand of the three programs
/// answers `--help` and `-h` with exit 0, `help COMMAND [SUBCOMMAND]` prints
/// the same text, and a mistyped word is answered with the nearest one.
@Suite("help and did you mean")
struct HelpTests {
    /// The commands of `share` with their subcommands.
    static let shareCommands: [(String, [String])] = [
        ("send", []), ("inbox", ["list", "show", "retry", "drop", "clean"]), ("login", []), ("logout", []),
        ("status", []), ("targets", []), ("desktop-entry", []), ("notify", []),
        ("debug", ["dpop-proof", "jwk", "get"]), ("manpage", []),
    ]

    static func share(_ arguments: [String]) throws -> ProcessResult {
        let home = NSTemporaryDirectory() + "share-help-\(getpid())"
        return try runProcess(
            BuiltProducts.path("share"), arguments,
            environment: [
                "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home + "/k",
                "SHAREKIT_CONTAINER_DIR": home + "/c",
            ].merging(TestLocale.english) { $1 })
    }

    @Test("share: every command and subcommand answers --help and -h with exit 0, the same text as share help")
    func everyCommandHelps() throws {
        for (command, subcommands) in Self.shareCommands {
            let viaHelp = try Self.share(["help", command])
            #expect(viaHelp.status == 0, "share help \(command): \(viaHelp.stderr)")
            #expect(viaHelp.stdout.contains("share \(command)"), "share help \(command): \(viaHelp.stdout)")
            for flag in ["--help", "-h"] {
                let direct = try Self.share([command, flag])
                #expect(direct.status == 0, "share \(command) \(flag): \(direct.stderr)")
                #expect(direct.stdout == viaHelp.stdout, "share \(command) \(flag)")
            }
            for sub in subcommands {
                let subHelp = try Self.share(["help", command, sub])
                #expect(subHelp.status == 0, "share help \(command) \(sub): \(subHelp.stderr)")
                #expect(subHelp.stdout.contains(sub))
                for flag in ["--help", "-h"] {
                    let direct = try Self.share([command, sub, flag])
                    #expect(direct.status == 0, "share \(command) \(sub) \(flag): \(direct.stderr)")
                    #expect(direct.stdout == subHelp.stdout, "share \(command) \(sub) \(flag)")
                }
            }
        }
        let top = try Self.share(["help"])
        let topFlag = try Self.share(["--help"])
        let sendHelp = try Self.share(["help", "send"])
        #expect(top.status == 0 && top.stdout == topFlag.stdout)
        #expect(top.stdout != sendHelp.stdout, "share help send is send's own help")
        let unknownSub = try Self.share(["help", "inbox", "lst"])
        #expect(unknownSub.status == 2)
        #expect(unknownSub.stderr.contains("did you mean 'list'?"), "\(unknownSub.stderr)")
    }

    @Test("share-server and share-daemon: --help, -h and help on every command, exit 0")
    func serverAndDaemonHelp() throws {
        let server = BuiltProducts.path("share-server")
        for words in [["routes"], ["admin"], ["admin", "revoke-write"], ["admin", "revoke-session"]] {
            let viaHelp = try runProcess(server, ["help"] + words)
            #expect(viaHelp.status == 0, "share-server help \(words): \(viaHelp.stderr)")
            for flag in ["--help", "-h"] {
                let direct = try runProcess(server, words + [flag])
                #expect(direct.status == 0, "share-server \(words) \(flag): \(direct.stderr)")
                #expect(direct.stdout == viaHelp.stdout && !direct.stdout.isEmpty)
            }
        }
        let serverHelp = try runProcess(server, ["--help"])
        #expect(!serverHelp.stdout.contains("kept in the share inbox"), "share-server lists only its own exit codes")
        #expect(serverHelp.stdout.contains("Exit codes:"))
        let daemon = BuiltProducts.path("share-daemon")
        for words in [["--help"], ["-h"], ["help"]] {
            let result = try runProcess(daemon, words)
            #expect(result.status == 0 && result.stdout.hasPrefix("share-daemon: "), "share-daemon \(words)")
        }
    }

    @Test(
        "a mistyped command, subcommand or option: did you mean, exit 2",
        arguments: [
            (["sned"], "unknown command 'sned'; did you mean 'send'?"),
            (["inbox", "lst"], "unknown subcommand 'lst'; did you mean 'list'?"),
            (["debug", "jkw"], "did you mean 'jwk'?"),
            (["send", "--jsn", "--text", "x", "--to", "thread:t1"], "unknown option --jsn; did you mean '--json'?"),
            (["targets", "--serach", "x"], "did you mean '--search'?"),
            (["stauts"], "did you mean 'status'?"),
        ])
    func didYouMean(arguments: [String], message: String) throws {
        let result = try Self.share(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("share-server: a mistyped command is answered with the nearest one, exit 2")
    func serverDidYouMean() throws {
        let result = try runProcess(BuiltProducts.path("share-server"), ["rotues"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'routes'?"), "\(result.stderr)")
    }
}
