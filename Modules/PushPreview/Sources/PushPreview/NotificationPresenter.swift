import Foundation
import ShareKitCore
public import ShareKitPushPreviewInterface

/// Shows a rendered notification on the desktop with `notify-send` (the
/// freedesktop notification server), or with the program named by
/// `SHAREKIT_NOTIFY_COMMAND`, which takes the same arguments (tests, other
/// desktops), and opens its link with `xdg-open` (or `SHAREKIT_OPEN_COMMAND`)
/// when the person clicks it.
///
/// - Grouping per thread: ``present(_:replacing:shownAs:)`` asks
///   `notify-send` for the id the notification server gave
///   (`--print-id`) and shows the next notification of the thread in its
///   place (`--replace-id`, the freedesktop `replaces_id`), so one thread
///   is one notification on the desktop however many messages came. The
///   thread also goes into a hint; the badge is a hint.
/// - The urgency follows `aps.interruption-level` (passive is low,
///   time-sensitive and critical are critical); a push with a sound asks
///   for the desktop's message sound (`sound-name` `message-new-instant`),
///   one without (or in quiet hours) for none (`suppress-sound`).
/// - A notification with a link offers the default action (`--action
///   default=Open`): `notify-send` then waits and prints `default` when the
///   notification is clicked, and the link is opened.
public struct NotificationPresenter: NotificationPresenting {
    /// The environment variable naming another program than `notify-send`.
    public static let commandVariable = "SHAREKIT_NOTIFY_COMMAND"
    /// The program used by default.
    public static let defaultCommand = "notify-send"
    /// The environment variable naming another program than `xdg-open` to open a link with.
    public static let openCommandVariable = "SHAREKIT_OPEN_COMMAND"
    /// The program that opens a link by default (the desktop's browser).
    public static let defaultOpenCommand = "xdg-open"
    /// The name of the default action: the notification server invokes it
    /// when the notification itself is clicked, and `notify-send` prints it.
    public static let defaultAction = "default"
    /// The desktop's sound for a new message (freedesktop sound naming specification).
    public static let messageSound = "message-new-instant"
    /// The most output read from the notification program (it prints an action's name).
    static let maxOutputBytes = 4096

    private let environment: [String: String]
    private let strings: PushStrings

    /// Makes a notifier for an environment (`SHAREKIT_NOTIFY_COMMAND`,
    /// `SHAREKIT_OPEN_COMMAND`, `PATH`, the session bus, the language of
    /// the action's label).
    public init(environment: [String: String]) {
        self.environment = environment
        strings = PushStrings(environment: environment)
    }

    /// The program that shows notifications.
    public var command: String { program(Self.commandVariable) ?? Self.defaultCommand }

    /// The program that opens a notification's link.
    public var openCommand: String { program(Self.openCommandVariable) ?? Self.defaultOpenCommand }

    private func program(_ variable: String) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The arguments of one call.
    /// - Parameters:
    ///   - shown: the notification.
    ///   - actionLabel: the label of the default action; the action is
    ///     offered only with a label and a link.
    /// - Returns: the arguments after the program's name.
    /// Every text is cut (``NotificationText``) before it is neutralised:
    /// the summary to ``PushPayloadParser/maxTitleBytes``, the body to
    /// ``PushPayloadParser/maxBodyBytes``, the thread and the label to
    /// ``PushPayloadParser/maxIDBytes``, so no argument comes near Linux's
    /// 128 KiB per argument (escapes and entities make a text at most six
    /// times longer) whatever a preview or a push carried.
    /// - Parameters:
    ///   - replacing: the id of the notification this one takes the place of (`--replace-id`).
    ///   - printID: whether `notify-send` prints the id the notification server gave (`--print-id`).
    public static func arguments(
        _ shown: RenderedNotification, actionLabel: String? = nil, replacing: UInt32? = nil, printID: Bool = false
    ) -> [String] {
        func cut(_ text: String, _ maxBytes: Int) -> String { NotificationText.cut(text, maxBytes: maxBytes) }
        var arguments = ["--app-name=ShareKit", "--category=im.received", "--urgency=\(shown.urgency.rawValue)"]
        if printID { arguments.append("--print-id") }
        if let replacing { arguments.append("--replace-id=\(replacing)") }
        if let thread = shown.threadID {
            let text = TerminalText.neutralised(cut(thread, PushPayloadParser.maxIDBytes))
            arguments.append("--hint=string:x-sharekit-thread:\(text)")
        }
        if let badge = shown.badge { arguments.append("--hint=int:x-sharekit-badge:\(badge)") }
        arguments.append(
            shown.sound == nil
                ? "--hint=boolean:suppress-sound:true" : "--hint=string:sound-name:\(Self.messageSound)")
        if let actionLabel, shown.link != nil {
            let label = TerminalText.neutralised(cut(actionLabel, PushPayloadParser.maxIDBytes))
            arguments.append("--action=\(Self.defaultAction)=\(label)")
        }
        // Names, titles and excerpts come from other users: the summary is
        // plain text, the body may be rendered as markup by the server.
        return arguments + [
            "--", TerminalText.neutralised(cut(shown.title, PushPayloadParser.maxTitleBytes)),
            TerminalText.notificationMarkup(cut(shown.body, PushPayloadParser.maxBodyBytes)),
        ]
    }

    /// Shows a notification without its default action and waits for the program to finish.
    /// - Parameter shown: what to show.
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/notShown(_:)`` when the program cannot be run or fails.
    public func deliver(_ shown: RenderedNotification) throws(PushError) {
        let program = try Self.start([command] + Self.arguments(shown), environment: environment, readOutput: false)
        let status = program.finish(maxOutputBytes: 0).status
        guard status == 0 else { throw PushError.notShown("\(command) failed (exit \(status))") }
    }

    /// Shows a notification; when it has a link, offers the default action,
    /// waits until it is clicked or closed, and opens the link on a click.
    /// Cancelling the task ends the wait: the notification program is
    /// stopped (SIGTERM to its process group, SIGKILL after ``stopGrace``;
    /// the notification stays, without its action), and this returns only
    /// once every program it started has ended and been reaped, so a caller
    /// that counts running presentations counts running programs.
    /// - Parameter shown: what to show.
    /// - Returns: ``NotificationAnswer/shown`` without a link, else
    ///   ``NotificationAnswer/closed`` or ``NotificationAnswer/opened(_:)``.
    /// - Throws: ``ShareKitPushPreviewInterface/PushError/notShown(_:)`` when a program cannot be run or fails.
    public func present(_ shown: RenderedNotification) async throws(PushError) -> NotificationAnswer {
        try await present(shown, replacing: nil, shownAs: nil)
    }

    /// Shows a notification in the place of an earlier one (its thread's),
    /// and tells the id the notification server gave it as soon as
    /// `notify-send` prints it, before the wait for a click; otherwise as
    /// ``present(_:)``.
    /// - Parameters:
    ///   - shown: what to show.
    ///   - replacing: the id of the notification it replaces (nil: a new one).
    ///   - shownAs: called once with the notification's id (`--print-id`);
    ///     nil asks for no id. A program that prints no number (an older
    ///     `notify-send`, another program) calls it never.
    /// - Returns: as ``present(_:)``.
    /// - Throws: as ``present(_:)``.
    public func present(
        _ shown: RenderedNotification, replacing: UInt32?, shownAs: (@Sendable (UInt32) -> Void)?
    ) async throws(PushError) -> NotificationAnswer {
        if Task.isCancelled { return shown.link == nil ? .shown : .closed }
        let label = shown.link == nil ? nil : strings.text(.actionOpen)
        // Only a notification with an action, or asked for its id, prints something worth reading.
        var firstLine: (@Sendable (String) -> Void)?
        if let shownAs {
            firstLine = { line in
                if let id = UInt32(line.trimmingCharacters(in: .whitespaces)), id > 0 { shownAs(id) }
            }
        }
        let program = shownAs == nil ? [command] : lineBuffered(command)
        let shownRun = try await Self.run(
            program + Self.arguments(shown, actionLabel: label, replacing: replacing, printID: shownAs != nil),
            environment: environment, readOutput: shown.link != nil || shownAs != nil, firstLine: firstLine)
        if Task.isCancelled { return shown.link == nil ? .shown : .closed }
        guard shownRun.status == 0 else { throw PushError.notShown("\(command) failed (exit \(shownRun.status))") }
        guard let link = shown.link else { return .shown }
        // With --print-id the id comes first; the action's name follows it.
        var lines = shownRun.output.split(whereSeparator: \.isNewline).map { line -> String in
            line.trimmingCharacters(in: .whitespaces)
        }
        if shownAs != nil, let first = lines.first, UInt32(first) != nil { lines.removeFirst() }
        let answer = lines.first
        guard answer == Self.defaultAction else { return .closed }
        let opened = try await Self.run([openCommand, link], environment: environment, readOutput: false)
        guard opened.status == 0 else { throw PushError.notShown("\(openCommand) failed (exit \(opened.status))") }
        return .opened(link)
    }

    /// The program that makes another one write its output line by line.
    static let lineBufferCommand = "stdbuf"

    /// A command whose output is written line by line: `notify-send` prints
    /// the notification's id with stdio, which holds it in a buffer while the
    /// output is a pipe, until the program ends, after the click, too late
    /// for the next notification of the thread. `stdbuf -oL` (coreutils)
    /// makes stdio flush every line. Without `stdbuf` on the `PATH` the
    /// command runs as it is and the id comes at its end.
    /// - Parameter command: the notification program.
    /// - Returns: the command to run.
    func lineBuffered(_ command: String) -> [String] {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(Self.lineBufferCommand)"
            if access(candidate, X_OK) == 0 { return [candidate, "-oL", command] }
        }
        return [command]
    }

    /// How long a stopped notification program has between SIGTERM and SIGKILL.
    public static let stopGrace: Duration = .seconds(1)

    private static func start(_ command: [String], environment: [String: String], readOutput: Bool)
        throws(PushError) -> NotificationProgram
    {
        do {
            return try NotificationProgram.start(command, environment: environment, readOutput: readOutput)
        } catch {
            throw PushError.notShown("cannot run \(command[0]): \(error)")
        }
    }

    /// Runs a program to its end on a thread of its own (a notification may
    /// wait for a click for hours; no thread of the cooperative pool is
    /// held meanwhile). Cancelling the task stops the program; the call
    /// returns once it has been reaped.
    /// - Returns: the exit status and the start of standard output.
    private static func run(
        _ command: [String], environment: [String: String], readOutput: Bool,
        firstLine: (@Sendable (String) -> Void)? = nil
    )
        async throws(PushError) -> (status: Int32, output: String)
    {
        let program = try start(command, environment: environment, readOutput: readOutput)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    let (status, output) = program.finish(maxOutputBytes: maxOutputBytes, firstLine: firstLine)
                    continuation.resume(returning: (status, String(decoding: output, as: UTF8.self)))
                }
            }
        } onCancel: {
            program.stop(grace: stopGrace)
        }
    }
}
