import ShareKitAppSupport
import ShareKitCore
import ShareKitDaemonKit
import ShareKitIntakeInterface
import ShareKitMessagesInterface
import ShareKitPushPreview
import ShareKitSystemTesting
import ShareKitTargetStoreInterface
import Testing

@testable import ShareKitCLIKit

/// The string tables of every owner: each key has an English and a German
/// text with the same placeholders, and what a person reads of `share`
/// comes from them in the chosen language.
@Suite("string tables")
struct StringTablesTests {
    /// Every owner's table by name, with how many keys it has.
    static let tables: [(name: String, keys: Int, problems: [String])] = [
        ("CLIText", CLIText.allCases.count, CLIText.table.problems),
        ("AppSupportText", AppSupportText.allCases.count, AppSupportText.table.problems),
        ("IntakeText", IntakeText.allCases.count, IntakeText.table.problems),
        ("TargetText", TargetText.allCases.count, TargetText.table.problems),
        ("MessagesText", MessagesText.allCases.count, MessagesText.table.problems),
        ("PushStrings", PushStrings.Key.allCases.count, PushStrings.table.problems),
        ("DaemonText", DaemonText.allCases.count, DaemonText.table.problems),
    ]

    @Test(
        "every key of every table has an English and a German text with the same placeholders",
        arguments: tables.map(\.name))
    func complete(name: String) throws {
        let table = try #require(Self.tables.first { $0.name == name })
        #expect(table.keys > 0)
        #expect(table.problems == [], "\(name)")
    }

    @Test("every command's help exists in German, without a placeholder left, and is not the English one")
    func germanHelp() async {
        for command in ShareCLI.table.commands where command.name != "debug" {
            let english = Language.withLanguage(.english) { command.help }
            let german = Language.withLanguage(.german) { command.help }
            #expect(german != english, "\(command.name)")
            #expect(!german.contains("{") || german.contains("{\""), "\(command.name): \(german)")
            #expect(german.hasPrefix("Aufruf: share") || german.hasPrefix(command.summary), "\(command.name)")
        }
        let out = BufferSink()
        let code = await Language.withLanguage(.german) {
            await ShareCLI.main(["--help"], io: ProgramIO(out: out, err: BufferSink()))
        }
        #expect(code == 0)
        for line in ["Befehle:", "Exit-Codes:", "Aufruf: share <Befehl> [Optionen]", "  send           Dateien, Links"]
        {
            #expect(out.text.contains(line), "\(line) in \(out.text)")
        }
    }

    @Test("a usage error is German on the terminal and English in --json; the manual page stays English")
    func usageErrorAndManualPage() async {
        let out = BufferSink()
        let err = BufferSink()
        let code = await Language.withLanguage(.german) {
            await ShareCLI.main(["send", "--json", "--on-cancel", "later"], io: ProgramIO(out: out, err: err))
        }
        #expect(code == 2)
        #expect(err.text == "share send: --on-cancel muss keep, remove oder discard sein; siehe 'share send --help'\n")
        #expect(out.text == #"{"error":"--on-cancel must be keep, remove or discard","status":"error"}"# + "\n")
        let page = Language.withLanguage(.german) { ManualPage(table: ShareCLI.table).roff }
        #expect(page == Language.withLanguage(.english) { ManualPage(table: ShareCLI.table).roff })
        #expect(page.contains("Usage: share send") && !page.contains("Aufruf"))
    }

    @Test("an interface's error reads German on a terminal, its description stays English for logs and manifests")
    func interfaceErrors() {
        let tooLarge = IntakeError.tooLarge(item: "big.iso", size: 3_000_000, limit: 1_000_000)
        #expect(tooLarge.description.hasPrefix("big.iso: 2.9 MiB (3000000 bytes) is over the server's limit"))
        #expect(
            Language.withLanguage(.german) { tooLarge.localizedText.localized }
                .hasPrefix("big.iso: 2.9 MiB (3000000 Bytes) liegt über dem Limit des Servers"))
        let refused = MessagesText.refusalMessage(status: 403, code: "write_forbidden", detail: "Read only.")
        #expect(refused == "you can no longer write here. Read only.")
        #expect(
            MessagesText.localizedRejection(code: "write_forbidden", message: refused)(.german)
                == "du kannst hier nicht mehr schreiben. Read only.")
        #expect(
            MessagesText.localizedRejection(code: "x", message: "words of a server")(.german) == "words of a server")
        let wait = RetryReason.rateLimited(retryAfterSeconds: 7200)
        #expect(
            wait.description
                == "the server is busy; it asked to wait 7200 seconds or more (waits are capped at an hour)")
        #expect(
            wait.localizedText(.german)
                == "der Server ist ausgelastet; er bat, 7200 Sekunden oder länger zu warten (Wartezeiten sind auf eine Stunde begrenzt)"
        )
    }
}
