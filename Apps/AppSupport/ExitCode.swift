import Foundation

/// The exit codes every ShareKit program uses, documented in README.md and
/// in each program's `--help`, so scripts can tell outcomes apart.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// The command did what was asked.
    case success = 0
    /// The command failed; the message on stderr says why.
    case failure = 1
    /// The command line was wrong; the message says what to change.
    case usage = 2
    /// The share was not sent now but is kept in the share inbox; the daemon will send it.
    case queued = 3
    /// The server refused the share for good (no write permission, too large,
    /// a type it does not accept); nothing was kept. The message says why.
    case rejected = 4
    /// The person interrupted the command (SIGINT); what was kept is said.
    case cancelled = 130
    /// The command exists but this build does not provide it yet.
    case unavailable = 69

    /// One line for `--help`, in the current language.
    public var meaning: String {
        switch self {
        case .success: return AppSupportText.text(.exitSuccess)
        case .failure: return AppSupportText.text(.exitFailure)
        case .usage: return AppSupportText.text(.exitUsage)
        case .queued: return AppSupportText.text(.exitQueued)
        case .rejected: return AppSupportText.text(.exitRejected)
        case .cancelled: return AppSupportText.text(.exitCancelled)
        case .unavailable: return AppSupportText.text(.exitUnavailable)
        }
    }

    /// The "Exit codes:" section every program's `--help` ends with, one
    /// line a code, so the list cannot differ between programs.
    public static var helpSection: String {
        AppSupportText.text(.exitCodes) + ":\n"
            + allCases.map { "  " + String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0) + $0.meaning }
            .joined(separator: "\n") + "\n"
    }
}
