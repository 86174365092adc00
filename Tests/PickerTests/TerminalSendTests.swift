import ClientTestSupport
import Foundation
import TestSupport
import Testing

/// `share send` on a terminal: a progress bar that fits the window.
@Suite("share send on a terminal")
struct TerminalSendTests {
    /// The lines a terminal showed: the text between carriage returns and
    /// newlines, escape sequences removed.
    static func drawnLines(_ raw: String) -> [String] {
        raw.split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }).map {
            PseudoTerminalProcess.stripEscapes(String($0))
        }
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
}
