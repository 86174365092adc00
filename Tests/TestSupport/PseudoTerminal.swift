public import Foundation
import ShareKitSystemTesting

/// A program run on a pseudo-terminal, the way a person runs it in a
/// terminal window: its standard input, output and error are the terminal,
/// keys are written to the master side and the screen is read back.
///
/// Output is collected by a reader thread until the terminal closes; the
/// exit status by a thread blocked in `waitpid`. Waiting for the screen or
/// the exit waits on a condition those threads signal, never a sleep.
public final class PseudoTerminalProcess: @unchecked Sendable {
    /// The program's process id.
    public let pid: pid_t
    private let master: Int32
    private let condition = NSCondition()
    private var output: [UInt8] = []
    private var closed = false
    private var status: Int32?
    private var echoAtEnd: Bool?

    /// Starts `executable` on a new terminal of `rows` by `columns`; with
    /// `controlling`, the terminal is the program's controlling terminal
    /// (`/dev/tty`, Ctrl-C typed as a key), as in a terminal window.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String], rows: UInt16 = 30,
        columns: UInt16 = 100, controlling: Bool = false
    ) throws {
        // Both ends close-on-exec from the start, so no other child a
        // parallel test spawns keeps the terminal open.
        master = ptyOpenMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, ptyGrant(master) == 0, ptyUnlock(master) == 0,
            ptyName(master, &name, name.count) == 0
        else { throw PseudoTerminalError("no pseudo-terminal (errno \(errno))") }
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw PseudoTerminalError("cannot open the terminal's other end") }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let spawned = spawnProgram(
            executable, arguments, environment: environment, standardStreams: [slave, slave, slave],
            controllingTerminal: controlling ? path : nil)
        close(slave)
        guard case .success(let child) = spawned else {
            close(master)
            throw PseudoTerminalError("cannot start \(executable): \(spawned)")
        }
        pid = child
        Thread { [self] in readUntilClosed() }.start()
        Thread { [self] in reap() }.start()
    }

    /// Gives the terminal a new size, as a person resizing the window does
    /// (the kernel sends SIGWINCH to the terminal's foreground process group).
    public func resize(rows: UInt16, columns: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Whether the terminal echoes what is typed now (a program that turned
    /// echo off for a password must turn it back on, however it ends).
    /// Once the program ended, what it left the terminal with.
    public var echoes: Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed { return echoAtEnd ?? false }
        var attributes = termios()
        guard tcgetattr(master, &attributes) == 0 else { return false }
        return attributes.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Writes keys (bytes) to the program.
    public func send(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything the program wrote so far, escape sequences included.
    public var raw: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of the latest frame (after the last clear screen), without escape sequences.
    public var screen: String { Self.lastFrame(raw) }

    /// Waits until the latest frame satisfies `predicate`.
    /// - Returns: the frame, or nil after `timeout` or once the program ended without it.
    @discardableResult
    public func waitForScreen(timeout: Double = 20, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let frame = Self.lastFrame(String(decoding: output, as: UTF8.self))
            if predicate(frame) { return frame }
            if closed || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for the program to end and its output to be read to the end;
    /// kills it after `timeout`.
    /// - Returns: the exit status, or 128 + the signal that ended it.
    public func waitForExit(timeout: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while status == nil || !closed {
            if !condition.wait(until: deadline) {
                kill(pid, SIGKILL)
                condition.wait(until: Date().addingTimeInterval(5))
                break
            }
        }
        let result = status ?? -1
        condition.unlock()
        return result
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            condition.lock()
            if count > 0 {
                output += buffer[0..<count]
            } else {
                // The descriptor closes below: what the terminal was left
                // with is kept for ``echoes``.
                var attributes = termios()
                if tcgetattr(master, &attributes) == 0 { echoAtEnd = attributes.c_lflag & tcflag_t(ECHO) != 0 }
                closed = true
            }
            condition.broadcast()
            condition.unlock()
            if count <= 0 { break }
        }
        close(master)
    }

    private func reap() {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let signal = raw & 0x7F
        condition.lock()
        status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        condition.broadcast()
        condition.unlock()
    }

    /// The text after the last "cursor home, clear screen", without escape sequences.
    public static func lastFrame(_ text: String) -> String {
        let start = "\u{1B}[H\u{1B}[2J"
        let frame = text.range(of: start, options: .backwards).map { String(text[$0.upperBound...]) } ?? text
        return stripEscapes(frame)
    }

    /// Text without CSI escape sequences and carriage returns.
    public static func stripEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }
}

/// Keys as a terminal sends them.
public enum Keys {
    /// Tab.
    public static let tab = "\t"
    /// Enter (a carriage return, as a terminal sends it).
    public static let enter = "\r"
    /// Escape.
    public static let escape = "\u{1B}"
    /// The down arrow.
    public static let down = "\u{1B}[B"
    /// The up arrow.
    public static let up = "\u{1B}[A"
    /// Ctrl-C.
    public static let ctrlC = "\u{03}"
}

/// Why a pseudo-terminal could not be set up.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// - Parameter description: what went wrong.
    public init(_ description: String) { self.description = description }
}

// The pseudo-terminal functions of the C library, which the Glibc module
// does not import (they sit behind _XOPEN_SOURCE in stdlib.h).
@_silgen_name("posix_openpt") private func ptyOpenMaster(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func ptyGrant(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func ptyUnlock(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func ptyName(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int)
    -> Int32
