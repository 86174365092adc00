import Dispatch
import Foundation
import ShareKitAppSupport
import ShareKitCore

/// Where `share login` gets the password: a line typed on the terminal
/// without echo, or one line of standard input (`--password-stdin`). The
/// password is never written anywhere; only the prompt is.
enum SessionPassword {
    /// The longest line accepted; a password is far shorter.
    static let maximumLength = 4096

    /// The first line of standard input, without its line end.
    /// - Throws: `ProgramError` when there is no line or it is too long.
    static func fromStandardInput() throws(ProgramError) -> String {
        guard let line = readLine(fd: 0) else {
            throw ProgramError(localized(.noPasswordOnStdin))
        }
        return line
    }

    /// Asks on the controlling terminal with echo turned off. The prompt
    /// goes to standard error. Ctrl-C ends the question, not the process:
    /// echo is turned back on and the caller gets ``interrupted``, which
    /// `share login` returns to `main` as exit code 130 (the one place a
    /// program of ShareKit ends).
    /// - Parameters:
    ///   - prompt: what to ask.
    ///   - err: standard error.
    /// - Throws: `ProgramError` when there is no terminal (use `--password-stdin`)
    ///   or it closed; ``interrupted`` after Ctrl-C.
    static func fromTerminal(prompt: String, err: any OutputSink) throws(ProgramError) -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw ProgramError(localized(.noTerminalForPassword))
        }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else {
            throw ProgramError(localized(.cannotSetUpTerminal))
        }
        // Ctrl-C wakes the read through a pipe instead of ending the
        // process in the handler: the terminal gets its echo back below, on
        // the one path every answer takes.
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            throw ProgramError(localized(.cannotSetUpTerminal))
        }
        // No program is started while the password is asked, but neither end
        // is for one.
        for end in wake { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (wakeRead, wakeWrite) = (wake[0], wake[1])
        defer { close(wakeRead) }
        // Watched before the prompt shows, so a Ctrl-C the moment it appears
        // is never lost (see SignalRelay).
        SignalRelay.interrupt.watch {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        defer {
            // No call of the watcher runs once unwatch returns, so a late
            // Ctrl-C never writes into a descriptor number reused meanwhile.
            SignalRelay.interrupt.unwatch()
            close(wakeWrite)
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Echo goes off before the prompt shows: whoever starts typing at the
        // prompt (a person, or a password manager's autotype) is never shown.
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        err.write(prompt)
        let answer = readLine(fd: fd, interruptedBy: wakeRead)
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        err.write("\n")
        switch answer {
        case .line(let line): return line
        case .interrupted: throw interrupted
        case .none: throw ProgramError(localized(.noPasswordTyped))
        }
    }

    /// What ``fromTerminal(prompt:err:)`` throws after Ctrl-C: exit code
    /// 130, and nothing more to say (the prompt's line is ended).
    static let interrupted = ProgramError(.cancelled, LocalizedText(verbatim: "interrupted"))

    /// What reading a line gave.
    private enum Answer {
        /// The line, without its line end.
        case line(String)
        /// Ctrl-C came first.
        case interrupted
    }

    /// Reads up to a line end, byte by byte so nothing after the line is
    /// consumed. Nil at end of input before any byte, or past ``maximumLength``.
    private static func readLine(fd: Int32) -> String? {
        if case .line(let line) = readLine(fd: fd, interruptedBy: nil) { return line }
        return nil
    }

    /// Reads up to a line end, or until `wake` becomes readable (Ctrl-C).
    /// Nil at end of input before any byte, or past ``maximumLength``.
    private static func readLine(fd: Int32, interruptedBy wake: Int32?) -> Answer? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            if let wake {
                var watched = [
                    pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&watched, 2, -1)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 { break }
                if watched[1].revents != 0 { return .interrupted }
            }
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            if byte == UInt8(ascii: "\n") { return .line(String(decoding: trimCR(bytes), as: UTF8.self)) }
            bytes.append(byte)
            if bytes.count > maximumLength { return nil }
        }
        return bytes.isEmpty ? nil : .line(String(decoding: trimCR(bytes), as: UTF8.self))
    }

    private static func trimCR(_ bytes: [UInt8]) -> [UInt8] {
        bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
    }
}
