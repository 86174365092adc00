import Foundation

/// Where a program writes its output. Programs take this instead of
/// printing directly so their libraries can be tested without processes.
public protocol OutputSink: AnyObject, Sendable {
    /// Writes text as is (callers add newlines).
    func write(_ text: String)
    /// Whether a person watches this output on a terminal (progress bars
    /// are drawn only then, never into a pipe or a file).
    var isTerminal: Bool { get }
    /// The width of the terminal in columns now (it changes when the window
    /// is resized: SIGWINCH), or nil when this is not a terminal.
    var columns: Int? { get }
}

extension OutputSink {
    /// Not a terminal unless the sink says so.
    public var isTerminal: Bool { false }
    /// No width unless the sink says so.
    public var columns: Int? { nil }
}

/// Writes to a file descriptor (standard output or standard error).
public final class FileDescriptorSink: OutputSink {
    private let fd: Int32

    /// Standard output.
    public static let standardOutput = FileDescriptorSink(fd: 1)
    /// Standard error.
    public static let standardError = FileDescriptorSink(fd: 2)

    /// - Parameter fd: an open, writable file descriptor.
    public init(fd: Int32) { self.fd = fd }

    /// `isatty(3)` of the descriptor.
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// `TIOCGWINSZ` of the descriptor, asked anew each time so a resized
    /// window (SIGWINCH) is followed at the next redraw.
    public var columns: Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return  // A closed pipe is not worth crashing over.
            }
            bytes = bytes.dropFirst(n)
        }
    }
}

/// Collects output in memory, for tests.
public final class BufferSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    /// An empty buffer.
    public init() {}

    public func write(_ text: String) {
        lock.lock()
        buffer += text
        lock.unlock()
    }

    /// Everything written so far.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }
}

/// The two output streams of a program run.
public struct ProgramIO: Sendable {
    /// Results, meant for people or scripts.
    public let out: any OutputSink
    /// Diagnostics and errors.
    public let err: any OutputSink

    /// - Parameters:
    ///   - out: standard output.
    ///   - err: standard error.
    public init(
        out: any OutputSink = FileDescriptorSink.standardOutput, err: any OutputSink = FileDescriptorSink.standardError
    ) {
        self.out = out
        self.err = err
    }
}
