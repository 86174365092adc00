import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share` in German, as a person with `LANG=de_DE.UTF-8` runs it against a
/// real server: the texts a person reads come from the German table, and
/// what scripts parse (`--json`, the `sent to` line) stays English. The
/// locale need not be generated on the machine (`locale -a` here has only
/// C and POSIX): the language is read from the variables, never from
/// setlocale.
@Suite("share in German")
struct GermanTextsTests {
    @Test("a refusal for a channel without write permission is German; --json keeps the English reason")
    func germanRefusal() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let refused = try fixture.share(
            ["send", "--text", "Hallo", "--to", "channel:c3"], environment: TestLocale.german)
        #expect(refused.status == 4, "\(refused.stderr)")
        // The last line: at the most verbose level (CI) the stage lines come first.
        #expect(
            refused.stderr.split(separator: "\n").last.map(String.init)
                == "share send: nicht gesendet: Du kannst in 'server > Announcements' nicht schreiben. "
                + "Nur Ziele mit Schreibrecht können gewählt werden.", "\(refused.stderr)")
        let json = try fixture.share(
            ["send", "--text", "Hallo", "--to", "channel:c3", "--json"], environment: TestLocale.german)
        #expect(json.status == 4)
        let object = ShareCLIFixture.json(json)
        #expect(
            object["reason"] as? String
                == "You cannot write in 'server > Announcements'. Only targets with write permission can be chosen.")
        #expect(object["code"] as? String == "write_forbidden")
        #expect(try fixture.scanInbox().entries.isEmpty, "nothing was kept")
    }

    @Test("a refusal by the server, kept in English in the manifest, is told in German; results stay parseable")
    func serverRefusalInGerman() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let queued = try fixture.share(
            ["send", "--text", "später", "--to", "thread:t1", "--queue"], environment: TestLocale.german)
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.stdout.hasPrefix("eingereiht als "), "\(queued.stdout)")
        #expect(queued.stdout.contains("share-daemon läuft nicht"), "\(queued.stdout)")
        let id = try #require(queued.stdout.split(separator: " ").dropFirst(2).first.map { String($0.dropLast()) })
        let list = try fixture.share(["inbox", "list"], environment: TestLocale.german)
        #expect(list.stdout.contains("\(id)") && list.stdout.contains("wartet im Teilen-Eingang"), "\(list.stdout)")

        #expect(try fixture.server.admin(["revoke-write", "--user", "alex", "--channel", "c1"]).status == 0)
        let retried = try fixture.share(["inbox", "retry", id], environment: TestLocale.german)
        #expect(retried.status == 4, "\(retried.stdout) \(retried.stderr)")
        #expect(
            retried.stderr.split(separator: "\n").contains {
                $0.hasPrefix("share send: nicht gesendet: du kannst hier nicht mehr schreiben. ")
            }, "\(retried.stderr)")

        // The contract line is English in every language.
        let fresh = try await ShareCLIFixture()
        defer { fresh.close() }
        let sent = try fresh.share(["send", "--text", "jetzt", "--to", "thread:t1"], environment: TestLocale.german)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasPrefix("sent to server > Gateway > resume the gateway: message "), "\(sent.stdout)")
    }

    @Test("LC_ALL, LC_MESSAGES, LANG in POSIX order and LANGUAGE choose the language of share status and --help")
    func choosingTheLanguage() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let status = try fixture.share(["status"], environment: TestLocale.german)
        #expect(status.stdout.contains("Benutzer: alex") && status.stdout.contains("Daemon: läuft nicht"))
        let viaList = try fixture.share(
            ["status"], environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "fr:de"])
        #expect(viaList.stdout.contains("Benutzer: alex"), "LANGUAGE names German second: \(viaList.stdout)")
        let cLocale = try fixture.share(["status"], environment: ["LC_ALL": "C", "LANG": "de_DE.UTF-8"])
        #expect(cLocale.stdout.contains("user: alex"), "LC_ALL=C wins: \(cLocale.stdout)")
        let messages = try fixture.share(
            ["--help"], environment: ["LC_MESSAGES": "de_AT.UTF-8", "LANG": "en_GB.UTF-8"])
        #expect(messages.stdout.contains("Befehle:") && messages.stdout.contains("Exit-Codes:"))
        let unknown = try fixture.share(["status"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(unknown.stdout.contains("user: alex"), "no French table: English")
    }
}
