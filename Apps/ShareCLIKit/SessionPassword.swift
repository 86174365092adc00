import AppSupport
import Dispatch
import Foundation
import ShareCore

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
    /// goes to standard error; Ctrl-C turns echo back on before the process ends.
    /// - Parameters:
    ///   - prompt: what to ask.
    ///   - err: standard error.
    /// - Throws: `ProgramError` when there is no terminal (use `--password-stdin`) or it closed.
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
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // A Ctrl-C while echo is off must not leave the person's terminal silent.
        let original = saved
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            var restore = original
            _ = tcsetattr(fd, TCSANOW, &restore)
            err.write("\n")
            ProgramExit.interrupted(ExitCode.cancelled.rawValue)
        }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        err.write(prompt)
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        let line = readLine(fd: fd)
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        err.write("\n")
        guard let line else { throw ProgramError(localized(.noPasswordTyped)) }
        return line
    }

    /// Reads up to a line end, byte by byte so nothing after the line is
    /// consumed. Nil at end of input before any byte, or past ``maximumLength``.
    private static func readLine(fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: trimCR(bytes), as: UTF8.self) }
            bytes.append(byte)
            if bytes.count > maximumLength { return nil }
        }
        return bytes.isEmpty ? nil : String(decoding: trimCR(bytes), as: UTF8.self)
    }

    private static func trimCR(_ bytes: [UInt8]) -> [UInt8] {
        bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
    }
}
