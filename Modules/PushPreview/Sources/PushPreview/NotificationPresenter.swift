import Foundation
public import PushPreviewInterface
import ShareCore

/// Shows a rendered notification on the desktop with `notify-send` (the
/// freedesktop notification server), or with the program named by
/// `SHAREKIT_NOTIFY_COMMAND`, which takes the same arguments (tests, other
/// desktops).
///
/// Grouping per thread: the thread goes into the category and a hint, so a
/// notification server can group (or replace) per thread; the badge is a hint.
public struct NotificationPresenter: NotificationPresenting {
    /// The environment variable naming another program than `notify-send`.
    public static let commandVariable = "SHAREKIT_NOTIFY_COMMAND"
    /// The program used by default.
    public static let defaultCommand = "notify-send"

    /// Why a notification could not be shown.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// A message for a person.
        public let description: String
    }

    private let environment: [String: String]

    /// Makes a notifier for an environment (`SHAREKIT_NOTIFY_COMMAND`, `PATH`, the session bus).
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The program that shows notifications.
    public var command: String {
        environment[Self.commandVariable].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultCommand
    }

    /// The arguments of one call.
    public static func arguments(_ shown: RenderedNotification) -> [String] {
        var arguments = ["--app-name=ShareKit", "--category=im.received"]
        if let thread = shown.threadID {
            arguments.append("--hint=string:x-sharekit-thread:\(TerminalText.neutralised(thread))")
        }
        if let badge = shown.badge { arguments.append("--hint=int:x-sharekit-badge:\(badge)") }
        // Names, titles and excerpts come from other users: the summary is
        // plain text, the body may be rendered as markup by the server.
        return arguments + [
            "--", TerminalText.neutralised(shown.title), TerminalText.notificationMarkup(shown.body),
        ]
    }

    /// Shows a notification and waits for the program to finish.
    /// - Parameter shown: what to show.
    /// - Throws: ``Failure`` when the program cannot be run or fails.
    public func deliver(_ shown: RenderedNotification) throws(Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + Self.arguments(shown)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(command): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(command) failed (exit \(process.terminationStatus))")
        }
    }
}
