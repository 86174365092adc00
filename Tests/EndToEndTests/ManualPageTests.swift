import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The manual pages in contrib/man are the programs' own (`share manpage`,
/// `share-daemon --manpage`, `share-server manpage`, written by
/// `tools/cli-docs`), current with the help texts; the systemd unit names one.
@Suite("manual pages")
struct ManualPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("contrib/man holds the pages the programs print now; the systemd unit documents itself with one")
    func manualPages() throws {
        let pages = [
            ("share.1", BuiltProducts.path("share"), ["manpage"]),
            ("share-daemon.1", BuiltProducts.path("share-daemon"), ["--manpage"]),
            ("share-server.1", BuiltProducts.path("share-server"), ["manpage"]),
        ]
        // The shipped pages are English: made so even in a German locale.
        for (file, program, arguments) in pages {
            let printed = try runProcess(program, arguments, environment: TestLocale.german)
            #expect(printed.status == 0)
            #expect(printed.stdout.hasPrefix(".\\\" Generated"), "\(file)")
            let shipped = try String(contentsOfFile: Self.root + "/contrib/man/" + file, encoding: .utf8)
            #expect(shipped == printed.stdout, "contrib/man/\(file) is not current: run ./tools/cli-docs")
        }
        let share = try String(contentsOfFile: Self.root + "/contrib/man/share.1", encoding: .utf8)
        #expect(share.contains(".SH \"SHARE INBOX\""))
        let unit = try String(contentsOfFile: Self.root + "/contrib/systemd/share-daemon.service", encoding: .utf8)
        #expect(unit.contains("\nDocumentation=man:share-daemon(1)\n"))
    }
}
