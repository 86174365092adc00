public import ShareKitCore

/// A failure a program reports to a person, and how it ends the program:
/// a wrong command line (``ExitCode/usage``), a refusal for good
/// (``ExitCode/rejected``, with the ``code`` `--json` names), or anything
/// else that failed (``ExitCode/failure``: no server, a store or a log file
/// that cannot be opened). The message is the whole description, in English
/// (``description``, for `--json` and logs) and in the person's language
/// (``localizedText``, for a terminal).
///
/// One type for every program and command, so that what a failure means is
/// decided once, where it is found: the place that reports it maps the exit
/// code to its own words and never classifies the failure again.
public struct ProgramError: Error, Equatable, CustomStringConvertible, Sendable, LocalizedDescription {
    /// How the program ends when this failure ends it.
    public let exitCode: ExitCode
    /// What a refusal was, for scripts (`--json`'s `code`: `not_logged_in`,
    /// `unknown_target`); nil for other failures.
    public let code: String?
    /// What went wrong, in every language.
    public let localizedText: LocalizedText
    /// The message's line breaks are its own (a list of candidates, each on
    /// a line, every part from elsewhere neutralised where it was made): a
    /// terminal shows it line by line instead of neutralising it whole.
    public var keepsLineBreaks = false
    /// The server the failure is about, for a command that words it again
    /// in its own terms (`share inbox retry` names the server nobody is
    /// logged in to).
    public var serverOrigin: String?

    /// What went wrong, in English.
    public var description: String { localizedText.english }

    /// A failure (exit 1).
    /// - Parameter description: what went wrong, the same in every language.
    public init(_ description: String) { self.init(.failure, LocalizedText(verbatim: description)) }

    /// A failure (exit 1).
    /// - Parameter text: what went wrong, in every language.
    public init(_ text: LocalizedText) { self.init(.failure, text) }

    /// A failure that ends the program with `exitCode`.
    /// - Parameters:
    ///   - exitCode: how the program ends.
    ///   - text: what went wrong, in every language.
    ///   - code: what a refusal was, for scripts (nil for other failures).
    public init(_ exitCode: ExitCode, _ text: LocalizedText, code: String? = nil) {
        self.exitCode = exitCode
        self.code = code
        localizedText = text
    }

    /// A wrong command line (exit 2); the message says what to change.
    /// - Parameter text: what is wrong, in every language.
    public static func usage(_ text: LocalizedText) -> ProgramError { ProgramError(.usage, text) }

    /// A wrong command line (exit 2); the message says what to change.
    /// - Parameter message: what is wrong, the same in every language.
    public static func usage(_ message: String) -> ProgramError { usage(LocalizedText(verbatim: message)) }

    /// A file or folder of the program (a log, a database's folder) that
    /// cannot be written: "cannot write PATH: REASON".
    /// - Parameters:
    ///   - path: the file or folder.
    ///   - reason: why, in the system's words.
    public static func cannotWrite(_ path: String, reason: String) -> ProgramError {
        ProgramError("cannot write \(path): \(reason)")
    }

    /// Whether the command line was wrong (exit 2).
    public var isUsage: Bool { exitCode == .usage }

    /// Two failures are the same when they end the program alike, with the
    /// same code and the same English message.
    public static func == (a: ProgramError, b: ProgramError) -> Bool {
        a.exitCode == b.exitCode && a.code == b.code && a.description == b.description
    }
}
