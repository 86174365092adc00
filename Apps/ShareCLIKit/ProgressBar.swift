import Foundation
import ShareKitAppSupport
import ShareKitCore
import Synchronization

/// How `share send` shows upload progress (`--progress`).
enum ProgressMode: String, Sendable {
    /// A bar on a terminal, nothing on a pipe (the default).
    case auto
    /// Always the redrawn bar.
    case bar
    /// Plain lines (`progress NAME DONE/TOTAL bytes`), at most one a second
    /// and one at the end: for logs and scripts that watch a long upload.
    case lines
    /// Nothing.
    case off

    /// The mode for a command line: `--no-progress` wins, else `--progress`.
    static func parse(_ value: String?, noProgress: Bool) throws -> ProgressMode {
        if noProgress { return .off }
        guard let mode = ProgressMode(rawValue: value ?? "auto") else {
            throw ProgramError.usage(localized(.progressValues))
        }
        return mode
    }
}

/// The upload progress line `share send` draws on a terminal: bytes the
/// server acknowledged, the rate, and the time left, shortened to the
/// terminal's width as it is at each redraw (so a resized window is followed).
/// On a pipe it draws
/// nothing unless asked for lines (scripts read the result line, not a bar).
final class ProgressBar: Sendable {
    private struct State {
        var started: ContinuousClock.Instant?
        var lastDrawn: ContinuousClock.Instant?
        var drewSomething = false
    }

    private let sink: any OutputSink
    private let enabled: Bool
    private let plainLines: Bool
    private let clock = ContinuousClock()
    private let state = Mutex(State())

    /// - Parameters:
    ///   - sink: where to draw (standard error).
    ///   - mode: `--progress`; `auto` draws the bar only when `sink` is a terminal.
    init(sink: any OutputSink, mode: ProgressMode) {
        self.sink = sink
        switch mode {
        case .auto:
            enabled = sink.isTerminal
            plainLines = false
        case .bar:
            enabled = true
            plainLines = false
        case .lines:
            enabled = true
            plainLines = true
        case .off:
            enabled = false
            plainLines = false
        }
    }

    /// Draws the line for `done` of `total` bytes of item `label`, at most
    /// ten times a second (and always for the last byte).
    func update(label: String, done: Int64, total: Int64) {
        guard enabled else { return }
        let now = clock.now
        let interval: Duration = plainLines ? .seconds(1) : .milliseconds(100)
        let line: String? = state.withLock { state in
            let started = state.started ?? now
            state.started = started
            if let last = state.lastDrawn, now - last < interval, done < total { return nil }
            state.lastDrawn = now
            state.drewSomething = !plainLines
            if plainLines { return "progress \(label) \(done)/\(total) bytes" }
            return Self.fitted(
                label: label, done: done, total: total, elapsed: Self.seconds(now - started),
                columns: sink.columns ?? Self.fallbackColumns)
        }
        guard let line else { return }
        sink.write(plainLines ? line + "\n" : "\r" + line + "\u{1B}[K")
    }

    /// Ends the line so that the next output starts on a fresh one.
    func finish() {
        guard enabled else { return }
        let drew = state.withLock { state in
            defer { state = State() }
            return state.drewSomething
        }
        if drew { sink.write("\n") }
    }

    /// The width assumed when the sink is not a terminal (`--progress bar` into a pipe).
    static let fallbackColumns = 80

    /// The progress line shortened to fit `columns` (one column is left free,
    /// so the cursor never wraps to a new line on a redraw): the ETA goes
    /// first, then the rate, then the bar narrows to 10, then the name is
    /// shortened in the middle, then the byte counts go.
    static func fitted(label: String, done: Int64, total: Int64, elapsed: Double, columns: Int) -> String {
        let room = max(10, columns - 1)
        let fraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        let counts = "\(formatBytes(done)) / \(formatBytes(total))"
        var rate: String?
        var eta: String?
        if elapsed > 0.2, done > 0 {
            let perSecond = Double(done) / elapsed
            rate = "\(formatBytes(Int64(perSecond)))/s"
            if done < total, perSecond > 0 {
                eta = t(.progressTimeLeft, ["time": formatDuration(Double(total - done) / perSecond)])
            }
        }
        func bar(_ width: Int) -> String {
            let filled = Int((fraction * Double(width)).rounded(.down))
            return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        }
        func line(_ name: String, barWidth: Int, counts: String?, rate: String?, eta: String?) -> String {
            ([name, bar(barWidth), percent].joined(separator: " ")
                + [counts, rate, eta].compactMap { $0 }.map { "  " + $0 }.joined())
        }
        let candidates: [(String?, String?, String?, Int)] = [
            (counts, rate, eta, 24), (counts, rate, nil, 24), (counts, nil, nil, 24), (counts, nil, nil, 10),
        ]
        for (c, r, e, width) in candidates {
            let text = line(label, barWidth: width, counts: c, rate: r, eta: e)
            if text.count <= room { return text }
            // The name may shrink to 12 characters before the next thing is dropped.
            let fixed = text.count - label.count
            if width == 10, fixed + 12 <= room {
                return line(shortened(label, to: room - fixed), barWidth: width, counts: c, rate: r, eta: e)
            }
        }
        let fixed = line("", barWidth: 10, counts: nil, rate: nil, eta: nil).count
        return line(shortened(label, to: max(1, room - fixed)), barWidth: 10, counts: nil, rate: nil, eta: nil)
    }

    /// A name shortened in the middle to `length` characters: `report-…-final.pdf`.
    static func shortened(_ name: String, to length: Int) -> String {
        guard name.count > length else { return name }
        guard length > 1 else { return String(name.prefix(length)) }
        let tail = (length - 1) / 2
        let head = length - 1 - tail
        return String(name.prefix(head)) + "…" + String(name.suffix(tail))
    }

    /// One progress line: `label [#####-----]  45%  12.0 MiB / 27.0 MiB  5.2 MiB/s  ETA 3s`.
    static func render(label: String, done: Int64, total: Int64, elapsed: Double, width: Int) -> String {
        let fraction = total > 0 ? min(1, max(0, Double(done) / Double(total))) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        var line = "\(label) [\(bar)] \(percent)  \(formatBytes(done)) / \(formatBytes(total))"
        if elapsed > 0.2, done > 0 {
            let rate = Double(done) / elapsed
            line += "  \(formatBytes(Int64(rate)))/s"
            if done < total, rate > 0 {
                line += "  " + t(.progressTimeLeft, ["time": formatDuration(Double(total - done) / rate)])
            }
        }
        return line
    }

    /// `1.5 MiB`, `512 B`: binary units, one decimal.
    static func formatBytes(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `42s`, `3m05s`, `1h02m`.
    static func formatDuration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, (total % 3600) / 60)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
