import Dispatch
import Foundation
import ShareKitAppSupport
import ShareKitCore

/// A terminal taken over for a full-screen program: raw mode (no echo, no
/// line editing, no signals from keys), the alternate screen buffer and a
/// hidden cursor, all given back by ``restore()``.
///
/// The terminal is given back on every way out: ``restore()`` from a
/// `defer`, and a signal handler for SIGTERM, SIGINT, SIGHUP, SIGQUIT and the
/// signals of a crash (a trap, an abort, a bad access) that restores, then
/// lets the signal take its default action. The handler only calls
/// `tcsetattr` and `write`, which are safe in a signal handler, on state
/// prepared before it was installed.
final class RawTerminal: @unchecked Sendable {
    /// The descriptor keys are read from.
    let input: Int32
    /// The descriptor the screen is drawn on.
    let output: Int32
    private let lock = NSLock()
    private var restored = false
    /// The handlers the signals had before, given back by ``restore()``.
    private var previousHandlers: [(Int32, __sighandler_t?)] = []

    /// What leaves the alternate screen and shows the cursor again.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// What enters the alternate screen and hides the cursor.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    /// The signals after which the terminal is restored before the process ends.
    static let restoringSignals: [Int32] = [
        SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
    ]

    /// Takes over the terminal.
    /// - Parameters:
    ///   - input: a terminal descriptor to read keys from.
    ///   - output: a terminal descriptor to draw on.
    /// - Throws: `ProgramError` when `input` is not a terminal.
    init(input: Int32, output: Int32) throws {
        self.input = input
        self.output = output
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw ProgramError(localized(.stdinNotTerminal)) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        TerminalRescue.prepare(fd: input, output: output, saved: saved)
        previousHandlers = Self.restoringSignals.map { ($0, signal($0, terminalRescueHandler)) }
        _ = tcsetattr(input, TCSAFLUSH, &raw)
        write(Self.enterSequence)
    }

    /// Writes to the screen, all of it.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Foundation.write(output, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The screen's size; 24 by 80 when the terminal does not say.
    var size: (rows: Int, columns: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else {
            return (24, 80)
        }
        return (Int(window.ws_row), Int(window.ws_col))
    }

    /// Gives the terminal back: the saved mode, the main screen, the cursor,
    /// and the signals their earlier handlers. Safe to call more than once.
    func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard !restored else { return }
        restored = true
        for (signo, handler) in previousHandlers { signal(signo, handler) }
        TerminalRescue.restoreNow()
        TerminalRescue.disarm()
    }
}

/// What the signal handler needs, prepared before it is installed so that it
/// allocates nothing.
private enum TerminalRescue {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var output: Int32 = -1
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var armed = false
    nonisolated(unsafe) static let sequence: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array(RawTerminal.restoreSequence.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()

    static func prepare(fd: Int32, output: Int32, saved: termios) {
        _ = sequence
        self.fd = fd
        self.output = output
        self.saved = saved
        armed = true
    }

    static func disarm() { armed = false }

    /// Restores the saved mode and writes the restore sequence (signal safe).
    static func restoreNow() {
        guard armed else { return }
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        _ = Foundation.write(output, sequence.baseAddress, sequence.count)
    }
}

/// Restores the terminal, then lets the signal do what it does by default.
private func terminalRescueHandler(_ signo: Int32) {
    TerminalRescue.restoreNow()
    TerminalRescue.disarm()
    signal(signo, SIG_DFL)
    raise(signo)
}
