import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` on a terminal: what it says while a frozen server keeps it
/// waiting, Ctrl-C then, and a progress bar that fits the window.
@Suite("share send on a terminal")
struct TerminalSendTests {
    /// The process id of the `share-server` serving a database, read from /proc.
    static func serverPID(_ fixture: PickerFixture) -> pid_t? {
        let database = fixture.sandbox.server.databasePath
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name),
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { continue }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if words.contains(database), words.first?.hasSuffix("share-server") == true { return pid }
        }
        return nil
    }

    /// The lines a terminal showed: the text between carriage returns and
    /// newlines, escape sequences removed.
    static func drawnLines(_ raw: String) -> [String] {
        raw.split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }).map {
            PseudoTerminalProcess.stripEscapes(String($0))
        }
    }

    @Test("a frozen server: the share is in the inbox at once, the terminal says what it waits for, Ctrl-C keeps it")
    func frozenServer() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let server = try #require(Self.serverPID(fixture))
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        let started = Date()
        let terminal = try fixture.picker(["send", "--text", "while frozen", "--to", "thread:t1"])
        let host = fixture.sandbox.origin.replacingOccurrences(of: "http://", with: "")
        let waiting = terminal.waitForScreen(timeout: 10) { $0.contains("share send: waiting for \(host) ...") }
        #expect(waiting != nil, "\(terminal.raw)")
        // The notice comes after 0.8 s; a loaded machine may add a little.
        #expect(Date().timeIntervalSince(started) < 3, "the wait was silent too long")
        let entries = try fixture.inboxEntries()
        #expect(entries.count == 1, "the share exists before the server answered")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitForExit() == 130, "\(terminal.raw)")
        // Kept, named by its short id, with the undo window and how to take it back.
        let short = String(entries.first?.id.suffix(6) ?? "?")
        let said = PseudoTerminalProcess.stripEscapes(terminal.raw)
        #expect(
            said.contains("the share was kept as \(short)") && said.contains("share inbox drop \(short)"), "\(said)")
        let kept = try fixture.inboxEntries()
        #expect(kept.map(\.id) == entries.map(\.id))
        #expect(kept.first?.isLocked == false, "kept for the daemon, unlocked")
    }

    @Test("the progress bar fits 60 columns (the name shortened in the middle) and follows a resize to 40")
    func progressFitsTheWidth() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        let name = "quarterly-report-final-version-2.txt"
        let path = fixture.sandbox.home.file(name)
        let line = Data("a line of the quarterly report, plain text that the server accepts\n".utf8)
        try Data(repeating: 0, count: 0).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for _ in 0..<(40 * 1024 * 1024 / line.count) { handle.write(line) }
        try handle.close()
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", path, "--to", "thread:t1"], environment: fixture.environment(),
            columns: 60)
        #expect(terminal.waitForScreen(timeout: 60) { $0.contains("%") } != nil, "\(terminal.raw)")
        // Hold the sender while the window shrinks, so the next redraws come after it.
        kill(terminal.pid, SIGSTOP)
        let before = terminal.raw.count
        terminal.resize(rows: 30, columns: 40)
        kill(terminal.pid, SIGCONT)
        #expect(terminal.waitForExit(timeout: 120) == 0, "\(terminal.raw)")
        let raw = terminal.raw
        let early = Self.drawnLines(String(raw.prefix(before))).filter { $0.contains("%") }
        let late = Self.drawnLines(String(raw.dropFirst(before))).filter { $0.contains("%") }
        #expect(!early.isEmpty && !late.isEmpty, "\(raw)")
        for line in early { #expect(line.count <= 59, "over 60 columns: \(line)") }
        for line in late { #expect(line.count <= 39, "over 40 columns after the resize: \(line)") }
        #expect(early.contains { $0.contains("…") && $0.hasPrefix("quarterly") }, "\(early)")
        #expect(late.last?.contains("100%") == true, "\(late)")
    }

    @Test("the picker's lines fit a 40-column terminal, and a 30-column one after a resize")
    func pickerFitsTheWidth() async throws {
        let fixture = try await PickerFixture()
        defer { fixture.close() }
        try fixture.remember(Demo.resumeTheGateway)
        let file = try fixture.file("a-file-with-a-rather-long-name-indeed.txt", "words\n")
        let terminal = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", file], environment: fixture.environment(), columns: 40)
        let first = terminal.waitForScreen { $0.contains("Recent targets:") }
        let frame = try #require(first, "\(terminal.raw)")
        for line in frame.split(separator: "\n") { #expect(line.count <= 40, "over 40 columns: \(line)") }
        #expect(frame.contains("server > Gateway > r"), "the long target is shown, shortened: \(frame)")
        terminal.resize(rows: 30, columns: 30)
        kill(terminal.pid, SIGWINCH)
        let narrow = terminal.waitForScreen { frame in
            frame.contains("Recent targets:") && frame.split(separator: "\n").allSatisfy { $0.count <= 30 }
        }
        #expect(narrow != nil, "no frame fits 30 columns after the resize: \(terminal.screen)")
        terminal.send(Keys.escape)
        #expect(terminal.waitForExit() == 130)
    }
}
