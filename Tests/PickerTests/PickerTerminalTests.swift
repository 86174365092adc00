import Foundation
import ShareKitClientTestSupport
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What leaves the alternate screen and shows the cursor again.
let restoreSequence = "\u{1B}[?25h\u{1B}[?1049l"

/// Whether the terminal was given back after the picker's last frame.
func restoredAfterLastFrame(_ output: String) -> Bool {
    guard let frame = output.range(of: "\u{1B}[H\u{1B}[2J", options: .backwards),
        let restored = output.range(of: restoreSequence, options: .backwards)
    else { return false }
    return restored.lowerBound > frame.lowerBound
}

/// `share send` without `--to` on a terminal: the full-screen picker driven
/// through a pseudo-terminal, keys in, screen out, against share-server.
@Suite("the target picker in a pseudo-terminal")
struct PickerTerminalTests {
    @Test("a recent target, a comment, Send: the file lands in that thread with the comment; terminal restored")
    func chooseRecentAndSend() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.resumeTheGateway)
        let notes = try fixture.file("notes.txt", "hello\n")
        let share = try fixture.picker(["send", notes])
        let first = share.waitForScreen { $0.contains("Recent targets:") && $0.contains("resume the gateway") }
        let screen = try #require(first, "\(share.screen)")
        #expect(screen.contains("[ Cancel ]") && screen.contains("[ Send ]"))
        #expect(screen.contains("notes.txt - text/plain - 6 B"))
        #expect(screen.contains("Only targets with write permission."))
        #expect(screen.contains("To: (no target chosen)"))

        share.send("looks good")
        share.waitForScreen { $0.contains("Comment: looks good") }
        share.send(Keys.tab + Keys.tab + Keys.enter)
        #expect(share.waitForScreen { $0.contains("To: server > Gateway > resume the gateway") } != nil)
        share.send(Keys.enter)
        let status = share.waitForExit()
        #expect(status == 0, "\(share.raw)")
        let output = share.raw
        #expect(output.contains("sent to server > Gateway > resume the gateway: message "))
        #expect(restoredAfterLastFrame(output))
        let messages = try await fixture.messages(thread: "t1")
        #expect(messages.count == 1)
        #expect(messages.first?.text == "looks good")
        #expect(messages.first?.files == ["notes.txt"])
        #expect(try fixture.inboxEntries().isEmpty)
    }

    @Test("typing a search lists writable matches (accents ignored); choosing a thread sends there")
    func searchAndChooseThread() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let share = try fixture.picker(["send", "--text", "found it"])
        #expect(share.waitForScreen { $0.contains("No recent targets: type to search.") } != nil, "\(share.screen)")
        share.send(Keys.tab + "resum")
        let both = share.waitForScreen {
            $0.contains("Results for \"resum\":") && $0.contains("design > Reviews > Résumé screen review")
        }
        #expect(both?.contains("server > Gateway > resume the gateway") == true, "\(share.screen)")
        share.send("e s")
        let one = share.waitForScreen { $0.contains("Results for \"resume s\":") }
        #expect(one?.contains("resume the gateway") == false, "\(share.screen)")
        share.send(Keys.enter + Keys.enter)
        #expect(share.waitForScreen { $0.contains("To: design > Reviews > Résumé screen review") } != nil)
        share.send(Keys.enter)
        #expect(share.waitForExit() == 0, "\(share.raw)")
        let messages = try await fixture.messages(thread: "t4")
        #expect(messages.map(\.text) == ["found it"])
    }

    @Test("Esc cancels: exit 130, no inbox entry, no message, terminal restored")
    func escapeCancels() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.resumeTheGateway)
        let share = try fixture.picker(["send", "--text", "never sent"])
        #expect(share.waitForScreen { $0.contains("resume the gateway") } != nil)
        share.send(Keys.tab + Keys.tab + Keys.enter)
        #expect(share.waitForScreen { $0.contains("To: server > Gateway") } != nil)
        share.send(Keys.escape)
        #expect(share.waitForExit() == 130)
        let output = share.raw
        let restored = try #require(output.range(of: restoreSequence, options: .backwards))
        #expect(PseudoTerminalProcess.stripEscapes(String(output[restored.upperBound...])).contains("cancelled"))
        #expect(try fixture.inboxEntries().isEmpty)
        #expect(try await fixture.messages(thread: "t1").isEmpty)
    }

    @Test("Send does nothing but show a hint until a target is chosen; Ctrl-C then cancels")
    func sendDisabledUntilChosen() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.gateway)
        let share = try fixture.picker(["send", "--text", "not yet"])
        #expect(share.waitForScreen { $0.contains("Recent targets:") } != nil)
        // Comment -> search -> list -> Send, then Enter on Send.
        share.send(Keys.tab + Keys.tab + Keys.tab + Keys.enter)
        let hinted = share.waitForScreen { $0.contains("Choose a target first") }
        #expect(hinted?.contains("To: (no target chosen)") == true, "\(share.screen)")
        share.send(Keys.ctrlC)
        #expect(share.waitForExit() == 130)
        #expect(restoredAfterLastFrame(share.raw))
        #expect(try await fixture.messages(channel: "c1").isEmpty)
        #expect(try fixture.inboxEntries().isEmpty)
    }

    @Test("SIGTERM while the picker is open: the terminal is restored before the process ends")
    func terminatedRestores() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let share = try fixture.picker(["send", "--text", "x"])
        #expect(share.waitForScreen { $0.contains("Only targets with write permission.") } != nil)
        kill(share.pid, SIGTERM)
        #expect(share.waitForExit() == 128 + SIGTERM)
        #expect(share.raw.hasSuffix(restoreSequence) && restoredAfterLastFrame(share.raw))
        #expect(try fixture.inboxEntries().isEmpty)
    }

    @Test("a search the server cannot answer shows why in the list and keeps the picker usable")
    func failingSearch() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.gateway)
        let share = try fixture.picker(["send", "--text", "offline"])
        #expect(share.waitForScreen { $0.contains("Recent targets:") } != nil)
        _ = fixture.sandbox.stopServer()
        share.send(Keys.tab + "gate")
        #expect(share.waitForScreen { $0.contains("Search failed:") } != nil, "\(share.screen)")
        share.send(Keys.escape)
        #expect(share.waitForExit() == 130)
        #expect(restoredAfterLastFrame(share.raw))
    }

    @Test("without a terminal and without --to: exit 2 and a message naming --to, nothing kept")
    func noTerminal() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let result = try fixture.share(["send", "--text", "where to?"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--to"))
        #expect(try fixture.inboxEntries().isEmpty)
    }
}
