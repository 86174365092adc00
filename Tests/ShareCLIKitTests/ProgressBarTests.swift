import ShareKitAppSupport
import ShareKitSystemTesting
import Testing

@testable import ShareKitCLIKit

/// A sink that says it is a terminal, to see what a person would see.
final class TerminalSink: OutputSink, @unchecked Sendable {
    let buffer = BufferSink()
    var isTerminal: Bool { true }
    func write(_ text: String) { buffer.write(text) }
}

@Suite("upload progress")
struct ProgressBarTests {
    @Test("the line names bytes acknowledged, the rate and the time left")
    func rendering() {
        let line = ProgressBar.render(
            label: "big.bin", done: 12 * 1_048_576, total: 48 * 1_048_576, elapsed: 2, width: 8)
        #expect(line == "big.bin [##------]  25%  12.0 MiB / 48.0 MiB  6.0 MiB/s  ETA 6s")
    }

    @Test("sizes and durations are readable", arguments: [(0, "0 B"), (1023, "1023 B"), (1536, "1.5 KiB")])
    func bytes(value: Int64, text: String) {
        #expect(ProgressBar.formatBytes(value) == text)
    }

    @Test("auto draws on a terminal and nothing into a pipe; lines mode writes whole lines")
    func modes() {
        let pipe = BufferSink()
        let quiet = ProgressBar(sink: pipe, mode: .auto)
        quiet.update(label: "a", done: 1, total: 2)
        quiet.finish()
        #expect(pipe.text.isEmpty)

        let terminal = TerminalSink()
        let bar = ProgressBar(sink: terminal, mode: .auto)
        bar.update(label: "a", done: 2, total: 2)
        bar.finish()
        #expect(terminal.buffer.text.hasPrefix("\ra [########################] 100%"))
        #expect(terminal.buffer.text.hasSuffix("\n"))

        let log = BufferSink()
        let lines = ProgressBar(sink: log, mode: .lines)
        lines.update(label: "a", done: 1, total: 4)
        lines.update(label: "a", done: 2, total: 4)
        lines.update(label: "a", done: 4, total: 4)
        #expect(log.text == "progress a 1/4 bytes\nprogress a 4/4 bytes\n")
    }

    @Test("--progress and --no-progress", arguments: [("auto", ProgressMode.auto), ("lines", .lines), ("off", .off)])
    func parsing(value: String, mode: ProgressMode) throws {
        #expect(try ProgressMode.parse(value, noProgress: false) == mode)
        #expect(try ProgressMode.parse(value, noProgress: true) == .off)
        #expect(throws: ProgramError.self) { try ProgressMode.parse("fancy", noProgress: false) }
    }
}
