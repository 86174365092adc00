import ShareKitAppSupport
import ShareKitCore
import ShareKitMessagesInterface

/// The failures of the CLI's commands that end a share before it is sent,
/// made where they are found and rendered in one place
/// (``exit(_:)``): the exit code, the `--json` object and the line.
extension ProgramError {
    /// A server nobody is logged in to on this device (exit 4,
    /// `not_logged_in`): a share for it could never be sent (the daemon
    /// sends only for the account `share login` chose), so it is refused
    /// before anything is kept.
    /// - Parameter origin: the server's origin as the command named it.
    static func notLoggedIn(at origin: String) -> ProgramError {
        var error = ProgramError(
            .rejected, localized(.notLoggedInAt, ["origin": TerminalText.neutralised(origin)]), code: notLoggedInCode)
        error.serverOrigin = origin
        return error
    }

    /// The code of ``notLoggedIn(at:)``.
    static let notLoggedInCode = "not_logged_in"

    /// The person named a target that does not exist or cannot be written
    /// to (exit 4): a `TargetError`'s message, whose own line breaks
    /// separate the candidates (everything else was neutralised).
    /// - Parameters:
    ///   - code: `unknown_target` or `write_forbidden`.
    ///   - text: the message.
    static func refusedTarget(code: String, _ text: LocalizedText) -> ProgramError {
        var error = ProgramError(.rejected, text, code: code)
        error.keepsLineBreaks = true
        return error
    }

    /// The `--verbose` stage line of a share that ends here (a log line: English).
    var stage: ShareStage {
        .refused(code: exitCode == .rejected ? code : nil, reason: localizedText.english)
    }

    /// Says the failure as `share send` does and gives the exit code.
    /// - Parameter report: the command's output.
    func exit(_ report: SendReport) -> ExitCode {
        switch exitCode {
        case .rejected: return report.refused(code: code ?? "", localizedText, lines: keepsLineBreaks)
        case .usage: return report.usage(localizedText)
        default: return report.failure(localizedText)
        }
    }
}
