import Dispatch
import Foundation
public import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitInboxInterface
import ShareKitIntakeInterface
import ShareKitMessagesInterface
import ShareKitServerAPIInterface
import ShareKitSharedStateInterface
import ShareKitTargetStoreInterface
import ShareKitUploadsInterface
import Synchronization

import enum ShareKitWireContract.UploadDigestAlgorithm

// The `share` program's command table comes first and its main command,
// `share send`, follows in this file: from `main` to the line a share ends
// with (sent, kept for share-daemon, refused), the CLI's part is read here,
// keeper of the inbox entry included (docs/architecture.md, the walk "What
// happens when `share send` gets a 503").

/// The `share` program: the share extension of ShareKit. It sends by itself
/// with its own child session and falls back to the share inbox.
///
/// It names no concrete module: `ClientAssembly` (the client side's
/// composition root) hands it every service as an interface.
public enum ShareCLI {
    /// The command table of `share`.
    public static let table: CommandTable = CommandTable(
        program: "share",
        summary: t(.programSummary),
        commands: [
            Subcommand(
                name: "send", summary: t(.summarySend), help: SendCommand.help,
                lastOptions: [Options.desktop.declaration.name]
            ) {
                arguments, io in
                await SendCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "inbox", summary: t(.summaryInbox),
                help: InboxCommand.help, subcommands: InboxCommand.subcommands
            ) {
                arguments, io in
                await InboxCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "login", summary: t(.summaryLogin),
                help: LoginCommand.help
            ) { arguments, io in
                await LoginCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "logout", summary: t(.summaryLogout), help: LogoutCommand.help) {
                arguments, io in
                await LogoutCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "accounts", summary: t(.summaryAccounts), help: AccountsCommand.help,
                subcommands: AccountsCommand.subcommands
            ) { arguments, io in
                await AccountsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "status", summary: t(.summaryStatus), help: StatusCommand.help) {
                arguments, io in
                await StatusCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "targets", summary: t(.summaryTargets), help: TargetsCommand.help) {
                arguments, io in
                await TargetsCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "desktop-entry", summary: t(.summaryDesktopEntry), help: DesktopEntry.help) {
                arguments, io in
                DesktopEntry.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(name: "notify", summary: t(.summaryNotify), help: NotifyCommand.help) {
                arguments, io in
                await NotifyCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
            },
            Subcommand(
                name: "debug", summary: t(.summaryDebug), help: DebugCommand.help,
                subcommands: DebugCommand.subcommands
            ) { arguments, io in
                // A developer's aid, in English only (its help too).
                await Language.withLanguage(.english) {
                    await DebugCommand.run(arguments, io: io, environment: ProcessInfo.processInfo.environment)
                }
            },
            Subcommand(
                name: "manpage", summary: t(.summaryManpage),
                help: t(.manpageHelp)
            ) { arguments, io in
                guard arguments.isEmpty else {
                    io.err.write(
                        "share manpage: " + t(.runHelp, ["message": t(.takesNoArguments), "command": "share manpage"])
                            + "\n")
                    return .usage
                }
                io.out.write(ManualPage(table: ShareCLI.table).roff)
                return .success
            },
            Subcommand(name: "completions", summary: t(.summaryCompletions), help: completionsHelp) {
                arguments, io in
                guard arguments.count == 1, ShellCompletions.shells.contains(arguments[0]) else {
                    let message = t(
                        .nameOneShell,
                        ["suggestion": Suggestion.didYouMean(arguments.first ?? "", in: ShellCompletions.shells)])
                    io.err.write(
                        "share completions: " + t(.runHelp, ["message": message, "command": "share completions"]) + "\n"
                    )
                    return .usage
                }
                io.out.write(
                    ShellCompletions.script(for: arguments[0], program: "share", commands: ShareCommands.all) ?? "")
                return .success
            },
            Subcommand(name: "reference", summary: t(.summaryReference), help: referenceHelp) {
                arguments, io in
                guard arguments.isEmpty else {
                    io.err.write(
                        "share reference: "
                            + t(.runHelp, ["message": t(.takesNoArguments), "command": "share reference"]) + "\n")
                    return .usage
                }
                io.out.write(CommandReference.markdown(program: "share", commands: ShareCommands.all))
                return .success
            },
        ],
        versionDetails: ClientAssembly.transportVersion
    )

    /// The text of `share completions --help`.
    static var completionsHelp: String { t(.completionsHelp) }

    /// The text of `share reference --help`.
    static var referenceHelp: String { t(.referenceHelp) }

    /// Runs `share` with `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO()) async -> Int32 {
        // The completions' hidden command, before the table: it is no
        // command a person types, and a Tab should not wait for the table.
        if arguments.first == ShellCompletions.candidatesCommand {
            return CompleteCommand.run(
                Array(arguments.dropFirst()), io: io, environment: ProcessInfo.processInfo.environment
            ).rawValue
        }
        return await table.run(arguments, io: io).rawValue
    }
}

/// `share send`: the extension path end to end. The share becomes an inbox
/// entry before its first byte goes to the server (write-ahead), is sent
/// with the CLI's own child session, and ends exactly one way: sent (entry
/// gone), kept for the daemon (entry stays, exit 3), refused (entry gone,
/// exit 4) or interrupted (`--on-cancel`).
enum SendCommand {
    static var help: String { t(.sendHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        // After `--desktop` come the desktop's items: only what is before it is parsed as options.
        let desktop = DesktopHandover.split(arguments)
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(desktop?.options ?? arguments, command: ShareCommands.send)
        } catch {
            io.err.write(
                "share send: "
                    + t(.runHelp, ["message": LocalizedText(describing: error).localized, "command": "share send"])
                    + "\n")
            return .usage
        }
        if parsed.asksForHelp {
            io.out.write(help)
            return .success
        }
        if let desktop { return await DesktopLaunch.run(desktop, parsed: parsed, io: io, environment: environment) }
        let report = SendReport(
            io: io, json: parsed.has(Options.json), verbose: parsed.verbose(environment: environment))
        var request: SendRequest
        do {
            request = try SendRequest(parsed)
        } catch {
            return report.usage(LocalizedText(describing: error))
        }
        if let stop = PickerLaunch.requireTerminal(request, report: report) { return stop }
        // Text alone: libcurl loads while the accounts and the state are read.
        if !request.sniffsFirst { ClientAssembly.startLoadingHTTPLibrary() }
        let context: CLIContext
        do {
            // A file or standard input is sniffed (libmagic's database, about
            // 6 MiB) before the first request: libcurl waits until then, so
            // that the two are never in memory at once.
            // A server nobody is logged in to is refused before anything is
            // kept: neither this command nor share-daemon could ever send it.
            context = try CLIContext(
                environment: environment, server: parsed.value(Options.server),
                loadsLibraryEarly: !request.sniffsFirst, requiresAccount: true,
                leavingLargeRemovals: true)
        } catch let error as ProgramError {
            return error.exit(report)
        } catch {
            return report.failure(LocalizedText(describing: error))
        }
        if let stop = await PickerLaunch.complete(&request, context: context, report: report) { return stop }
        let code = await SendFlow(request: request, context: context, report: report).run()
        // After the outcome is written: the person has the answer while a
        // large share's copy is deleted.
        context.removeLeftoversInBackground(environment: environment)
        return code
    }
}

/// A `share send` command line, checked.
struct SendRequest: Sendable {
    var items: [String]
    var texts: [String]
    var readStandardInput: Bool
    var target: String
    var comment: String
    var newPostTitle: String?
    var queueOnly: Bool
    var onCancel: CancelPolicy
    var undoWindow: UndoWindow
    var loadTimeout: Duration
    var progress: ProgressMode
    var keepMetadata: Bool

    /// Whether a file or standard input is examined (libmagic) before the
    /// first request: libcurl is then loaded only after it, so that the two
    /// are never in memory at once; a text alone loads libcurl at once.
    var sniffsFirst: Bool { !items.isEmpty || readStandardInput }

    init(_ parsed: ParsedArguments) throws {
        items = parsed.positionals.filter { $0 != "-" }
        readStandardInput = parsed.has(Options.stdin) || parsed.positionals.contains("-")
        texts = parsed.values(Options.text)
        target = parsed.value(Options.to) ?? ""
        comment = parsed.value(Options.comment) ?? ""
        newPostTitle = parsed.value(Options.newPost)
        if let title = newPostTitle, title.allSatisfy(\.isWhitespace) {
            throw ProgramError.usage(localized(.newPostNeedsTitle))
        }
        queueOnly = parsed.has(Options.queue)
        keepMetadata = parsed.has(Options.keepMetadata)
        progress = try ProgressMode.parse(parsed.value(Options.progress), noProgress: parsed.has(Options.noProgress))
        guard let policy = CancelPolicy(option: parsed.value(Options.onCancel) ?? "keep") else {
            throw ProgramError.usage(localized(.onCancelValues))
        }
        onCancel = policy
        undoWindow = try UndoWindow.parse(parsed.value(Options.undoWindow))
        let timeout = parsed.value(Options.loadTimeout) ?? "30"
        guard let seconds = Double(timeout), seconds > 0, seconds <= 86_400 else {
            throw ProgramError.usage(localized(.loadTimeoutRange))
        }
        loadTimeout = .milliseconds(Int64(seconds * 1000))
        if items.isEmpty, texts.isEmpty, !readStandardInput, comment.isEmpty {
            throw ProgramError.usage(localized(.nothingToShare))
        }
    }
}

/// Prints the outcome of `share send` as a person or a script wants it.
///
/// `--json` and the line `sent to <display path>: message <id>` are
/// contracts that scripts parse: English whatever the language. Every other
/// line is for a person, in the person's language; the `--verbose` steps are
/// log lines (English, like share-daemon's).
struct SendReport: Sendable {
    let io: ProgramIO
    let json: Bool
    var verbose = false

    /// One stage of a share, on stderr with `--verbose`: the share's id
    /// first, then what happened (never a token or the message's text).
    /// File names and reasons come from other programs and the server:
    /// neutralised, like every line of the daemon's log.
    func stage(_ id: String, _ stage: ShareStage) {
        if verbose { io.err.write("share send: \(id): \(TerminalText.neutralised(stage.text))\n") }
    }

    /// The first Ctrl-C after the message was sent to the server: it waits for the answer.
    func waitingForAnswer() {
        let seconds = DeliveryInterruption.answerWait.components.seconds
        io.err.write("share send: " + t(.waitingForAnswer, ["seconds": Int64(seconds)]) + "\n")
    }

    /// Said after the sent line when Ctrl-C came while the server stored the message.
    func sentDespiteInterrupt() {
        io.err.write("share send: " + t(.sentDespiteInterrupt) + "\n")
    }

    func usage(_ message: LocalizedText) -> ExitCode {
        if json { io.writeJSON(["status": "error", "error": JSONValue(message.english)]) }
        io.err.write("share send: " + t(.runHelp, ["message": message.localized, "command": "share send"]) + "\n")
        return .usage
    }

    func failure(_ message: LocalizedText) -> ExitCode {
        if json { io.writeJSON(["status": "error", "error": JSONValue(message.english)]) }
        io.err.write("share send: \(TerminalText.neutralised(message.localized))\n")
        return .failure
    }

    /// A refusal (exit 4).
    /// - Parameter lines: the message's parts from elsewhere were
    ///   neutralised where it was made and its line breaks are its own (a
    ///   list of targets): shown line by line.
    func refused(code: String, _ message: LocalizedText, clientMsgID: String? = nil, lines: Bool = false) -> ExitCode {
        if json {
            var object: [String: JSONValue] = [
                "status": "rejected", "code": JSONValue(code), "reason": JSONValue(message.english),
            ]
            if let clientMsgID { object["client_msg_id"] = JSONValue(clientMsgID) }
            io.writeJSON(.object(object))
        }
        // The reason may quote the server (a problem's detail): shown, never obeyed.
        io.err.write("share send: " + t(.notSent, ["reason": Self.terminal(message.localized, lines: lines)]) + "\n")
        return .rejected
    }

    /// Text for the terminal: neutralised whole, or line by line when its
    /// line breaks are its own.
    static func terminal(_ text: String, lines: Bool) -> String {
        guard lines else { return TerminalText.neutralised(text) }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.neutralised(String($0)) }.joined(separator: "\n")
    }

    func sent(_ message: SentMessage, manifest: InboxManifest) -> ExitCode {
        if json {
            io.writeJSON([
                "status": "sent", "client_msg_id": JSONValue(manifest.clientMsgID),
                "target": Self.target(manifest.target), "message_id": JSONValue(message.messageID),
                "thread_id": JSONValue(message.threadID), "channel_id": JSONValue(message.channelID),
                "replayed": JSONValue(message.replayed),
                "attachments": .array(
                    message.attachments.map {
                        var attachment: [String: JSONValue] = [
                            "upload_id": JSONValue($0.uploadID), "file_name": JSONValue($0.fileName),
                            "size": JSONValue($0.size), "sha256": JSONValue($0.sha256),
                        ]
                        // Said whenever `sha256` is not the file's plain
                        // SHA-256, so a script does not compare it with sha256sum.
                        if let form = $0.digestAlgorithm { attachment["digest_algorithm"] = JSONValue(form) }
                        return JSONValue.object(attachment)
                    }),
            ])
        } else {
            let path = TerminalText.neutralised(manifest.target.displayPath)
            let id = TerminalText.neutralised(message.messageID)
            if io.out.isTerminal {
                // For a person: in the person's language.
                let key: CLIText = message.replayed ? .sentToAgainTerminal : .sentToTerminal
                io.out.write(t(key, ["path": path, "message": id]) + "\n")
            } else {
                // A contract line: scripts parse it, so it is English in every language.
                let again = message.replayed ? " (it had already been delivered)" : ""
                io.out.write("sent to \(path): message \(id)\(again)\n")
            }
        }
        return .success
    }

    /// A share kept for share-daemon: queued on purpose (`reason` nil, exit 0)
    /// or not sent now (exit 3). `daemonRunning` false says that no daemon
    /// answered and how to start one; the exit code stays the same.
    /// - Parameter shortID: the id a person types for the share (`share inbox show ID`).
    func queued(_ entry: InboxEntry, shortID: String, reason: LocalizedText?, daemonRunning: Bool = true)
        -> ExitCode
    {
        let path = TerminalText.neutralised(entry.manifest.target.displayPath)
        let who =
            daemonRunning
            ? t(.daemonWillSend, ["path": path])
            : t(.daemonWillSendWhenStarted, ["advice": t(.daemonNotRunning), "path": path])
        if json {
            var object: [String: JSONValue] = [
                "status": "queued", "client_msg_id": JSONValue(entry.manifest.clientMsgID),
                "inbox_entry": JSONValue(entry.id), "short_id": JSONValue(shortID),
                "target": Self.target(entry.manifest.target),
                "daemon_running": JSONValue(daemonRunning),
            ]
            if let reason { object["reason"] = JSONValue(reason.english) }
            io.writeJSON(.object(object))
        } else if let reason {
            io.out.write(
                t(.notSentNow, ["reason": TerminalText.neutralised(reason.localized)]) + "\n"
                    + t(.keptInInbox, ["id": shortID, "who": who]) + "\n")
        } else {
            io.out.write(t(.queued, ["id": shortID, "who": who]) + "\n")
        }
        return reason == nil ? .success : .queued
    }

    /// Ctrl-C ended the send (exit 130). `mayBeOnServer`: the message was
    /// sent and no answer came in time, so the share was kept whatever
    /// `--on-cancel` asked, and the person is told why. A kept share waits
    /// its undo window before share-daemon may send it: the message says
    /// how long and how to take it back.
    /// - Parameters:
    ///   - kept: whether the share stayed in the share inbox.
    ///   - id: the share's full id (`--json`).
    ///   - shortID: the id a person types (`share inbox drop ID`).
    ///   - target: where the share goes, as a person reads it.
    ///   - window: the undo window it waits.
    func cancelled(
        kept: Bool, id: String, shortID: String, target: ShareTarget, window: UndoWindow,
        daemonRunning: Bool = true, mayBeOnServer: Bool = false
    ) -> ExitCode {
        let undo = kept && window.isOpen
        if json {
            io.writeJSON([
                "status": "cancelled", "client_msg_id": JSONValue(id), "short_id": JSONValue(shortID),
                "kept": JSONValue(kept), "may_be_on_server": JSONValue(mayBeOnServer),
                "undo_window_seconds": JSONValue(undo ? window.seconds : 0),
            ])
        }
        let advice = daemonRunning ? "" : "share send: " + t(.daemonNotRunning) + "\n"
        let path = TerminalText.neutralised(target.displayPath)
        let text: String
        switch (mayBeOnServer, kept, undo) {
        case (true, _, true):
            text = t(.interruptedMayBeOnServerUndo, ["id": shortID, "seconds": window.seconds, "path": path])
        case (true, _, false): text = t(.interruptedMayBeOnServer, ["id": shortID])
        case (false, true, true): text = t(.interruptedUndo, ["id": shortID, "seconds": window.seconds, "path": path])
        case (false, true, false): text = t(.interruptedKept, ["id": shortID])
        case (false, false, _): text = t(.interruptedRemoved)
        }
        io.err.write("share send: " + text + "\n" + (kept ? advice : ""))
        return .cancelled
    }

    /// The one place a delivery's outcome becomes what `share send` and
    /// `share inbox retry` show: its `--verbose` stage line (the share's id
    /// first), the line or `--json` object, and the exit code; the target
    /// becomes recent after a success.
    /// - Parameters:
    ///   - interruption: the send's Ctrl-C handling; a message the server
    ///     stored while Ctrl-C waited for its answer is reported as sent,
    ///     with a word about the Ctrl-C.
    ///   - undoWindow: how long a share kept after Ctrl-C waits for share-daemon.
    func finish(
        _ outcome: DeliveryOutcome, entry: InboxEntry, context: CLIContext, interruption: DeliveryInterruption,
        undoWindow: UndoWindow
    ) -> ExitCode {
        let id = entry.id
        switch outcome {
        case .sent(let message):
            _ = try? context.recents.record(entry.manifest.target)
            stage(id, .sent(messageID: message.messageID, replayed: message.replayed))
            let code = sent(message, manifest: entry.manifest)
            if interruption.interrupted { sentDespiteInterrupt() }
            return code
        case .kept(let reason, _, _):
            stage(id, .kept(reason: reason.logDescription))
            return queued(
                entry, shortID: context.shortID(of: id), reason: reason.localizedText,
                daemonRunning: context.wakeDaemon())
        case .refused(let refusal) where refusal.keptIn == .quarantine:
            stage(id, .quarantined(reason: refusal.message))
            return failure(localized(.quarantinedNotSent, ["reason": refusal.message]))
        case .refused(let refusal):
            stage(id, .refused(code: refusal.code, reason: refusal.message))
            return refused(
                code: refusal.code, MessagesText.localizedRejection(code: refusal.code, message: refusal.message),
                clientMsgID: entry.manifest.clientMsgID)
        case .cancelled(let kept, let mayBeOnServer):
            stage(id, .interrupted(kept: kept, mayBeOnServer: mayBeOnServer))
            return cancelled(
                kept: kept, id: id, shortID: kept ? context.shortID(of: id) : id, target: entry.manifest.target,
                window: undoWindow, daemonRunning: kept ? context.wakeDaemon() : true, mayBeOnServer: mayBeOnServer)
        }
    }

    /// A target as `--json` shows it: kind, id and display path.
    static func target(_ target: ShareTarget) -> JSONValue {
        [
            "kind": JSONValue(target.kind.rawValue), "id": JSONValue(target.id),
            "display_path": JSONValue(target.displayPath),
        ]
    }
}

/// The steps of one `share send`, in the order that keeps the share safe:
/// settle the target as far as it is known without the network, read the
/// limits known from earlier, build the inbox entry (intake copies the files
/// into it), and only then talk to the server: check the target (and the
/// limits when none were known), send the entry and end it by the outcome.
/// Ctrl-C at any point after the entry exists keeps it (`--on-cancel keep`).
struct SendFlow: Sendable {
    let request: SendRequest
    let context: CLIContext
    let report: SendReport

    /// Runs the steps against Ctrl-C: the exit code is the steps' own, or
    /// the one Ctrl-C's handler gives once it has kept (or removed) the
    /// share, whichever comes first.
    func run() async -> ExitCode {
        let interrupt = InterruptHandler()
        defer { interrupt.restore() }
        return await interrupt.race { await steps(interrupt) }
    }

    /// The steps, in order; Ctrl-C's handler in charge changes as they go.
    private func steps(_ interrupt: InterruptHandler) async -> ExitCode {
        let clientMsgID = UUIDv7()

        // The target without the network: a reference as given, a display
        // path from the recent targets. Only a display path known nowhere
        // here is looked up before the share exists.
        var target: ShareTarget
        var checkedWithServer = false
        switch context.offlineTarget(request.target, newPostTitle: request.newPostTitle) {
        case .failure(let problem):
            return problem.exit(report)
        case .success(let known?):
            target = known
        case .success(nil):
            let notice = WaitingNotice(io: report.io, origin: context.origin)
            let looked = await context.resolveTarget(request.target, newPostTitle: request.newPostTitle)
            notice.stop()
            switch looked {
            case .success(let resolved): target = resolved
            case .failure(let problem): return problem.exit(report)
            }
            checkedWithServer = true
        }

        // A text share asks the server about its target now and reads the
        // answer once the entry is written: the request's round trip runs
        // beside the write's fsyncs. It carries nothing of the share (a
        // lookup of the person's threads), and libcurl is loading already
        // (``SendCommand``). A share of files asks after the intake, so that
        // libcurl is not loaded while libmagic examines the files; `--queue`
        // never asks.
        let lookUpTarget = { [context, request] in
            Task { await context.resolveTarget(request.target, newPostTitle: request.newPostTitle) }
        }
        let earlyLookup = checkedWithServer || request.sniffsFirst || request.queueOnly ? nil : lookUpTarget()
        // Every way out of the steps before the answer is read drops the request.
        defer { earlyLookup?.cancel() }

        let cachedLimits = context.cachedInstanceLimits()
        let sources: [ShareItemSource]
        do {
            sources = try context.sources(for: request)
        } catch {
            return report.failure(LocalizedText(describing: error))
        }
        let attachmentCount = sources.filter { if case .file = $0 { return true } else { return false } }.count
        if let stop = Self.tooManyAttachments(attachmentCount, limits: cachedLimits, report: report) { return stop }

        // Write-ahead: the entry exists (locked) before the first byte goes out.
        let draft: any InboxDraft
        do {
            draft = try context.inbox.makeDraft(id: clientMsgID.description)
        } catch {
            return report.failure(LocalizedText(describing: error))
        }
        var policy = IntakePolicy(
            acceptedContentTypes: cachedLimits?.acceptedContentTypes,
            fileMaxUploadBytes: cachedLimits?.fileMaxUploadBytes, loadTimeout: request.loadTimeout,
            keepImageMetadata: request.keepMetadata)
        policy.partDigestSize = Self.partDigestSize(cachedLimits)
        // Intake runs as its own task so Ctrl-C can cancel it (a stalled pipe
        // or FIFO ends at once); the draft is discarded here, after the task
        // has stopped writing into it, never from the signal handler.
        let intake = context.intake
        let loading = Task { () async -> Result<[IntakeItem], IntakeError> in
            do throws(IntakeError) {
                return .success(try await intake.load(sources, into: draft.directory, policy: policy, progress: nil))
            } catch {
                return .failure(error)
            }
        }
        let interrupted = Mutex(false)
        interrupt.onInterrupt = {
            interrupted.withLock { $0 = true }
            loading.cancel()
        }
        report.stage(clientMsgID.description, .loading(items: sources.count))
        let loaded = await loading.value
        interrupt.onInterrupt = nil
        if interrupted.withLock({ $0 }) {
            // Nothing is in the inbox yet: drop the half-made copy and stop.
            context.inbox.discard(draft)
            return report.cancelled(
                kept: false, id: clientMsgID.description, shortID: clientMsgID.description, target: target,
                window: request.undoWindow)
        }
        let items: [IntakeItem]
        switch loaded {
        case .success(let value):
            items = value
        case .failure(let error):
            context.inbox.discard(draft)
            switch error {
            case .unsupportedType, .tooLarge, .notConvertible, .protectedFile, .metadataNotRemovable:
                return report.refused(code: Self.code(of: error), LocalizedText(describing: error))
            case .empty:
                return report.usage(LocalizedText(describing: error))
            default:
                return report.failure(LocalizedText(describing: error))
            }
        }
        for item in items {
            if let converted = ShareStage.conversion(of: item) { report.stage(clientMsgID.description, converted) }
        }
        let manifest = Self.manifest(
            clientMsgID: clientMsgID, origin: context.origin, target: target, request: request, items: items)
        var entry: InboxEntry
        do {
            entry = try context.inbox.commit(draft, manifest: manifest)
        } catch {
            interrupt.onInterrupt = nil
            context.inbox.discard(draft)
            return report.failure(LocalizedText(describing: error))
        }

        report.stage(entry.id, .written(attachments: entry.manifest.attachments.count, target: entry.manifest.target))
        if request.queueOnly {
            interrupt.onInterrupt = nil
            draft.release()
            report.stage(entry.id, .queued)
            return report.queued(
                entry, shortID: context.shortID(of: entry.id), reason: nil, daemonRunning: context.wakeDaemon())
        }

        // From here the share exists: Ctrl-C while the server is asked keeps
        // it (or removes it with --on-cancel remove) and ends the command
        // with its code, leaving the steps behind (they die with the
        // process). A kept share gets its undo window first, written after
        // any write of the entry in progress and before the lock is given
        // up, so the daemon never sees it without the window. A refusal
        // that wrote last has had the last word: Ctrl-C then leaves the
        // steps to end.
        let onCancel = request.onCancel
        let window = request.undoWindow
        let inbox = context.inbox
        let report = self.report
        let sending = context
        let writes = EntryWrites(entry)
        interrupt.onInterrupt = { [weak interrupt] in
            var last = writes.entry
            let closed = writes.close { current in
                last = current
                if onCancel == .remove {
                    try? inbox.markProcessed(current, lock: draft)
                } else {
                    _ = try? inbox.update(current, manifest: window.starting(on: current.manifest), lock: draft)
                    draft.release()
                }
            }
            guard closed else { return }
            report.stage(last.id, .interrupted(kept: onCancel == .keep, mayBeOnServer: false))
            let running = onCancel == .keep ? sending.wakeDaemon() : true
            interrupt?.end(
                report.cancelled(
                    kept: onCancel == .keep, id: last.id, shortID: sending.shortID(of: last.id),
                    target: last.manifest.target, window: window, daemonRunning: running))
        }
        let notice = WaitingNotice(io: report.io, origin: context.origin)
        // A refusal found before the message is asked for: the written entry
        // leaves the inbox (nothing was sent), its stage is logged, and the
        // process ends with `exit`'s code. The removal is the entry's last
        // write: once Ctrl-C has written last, the share is Ctrl-C's and
        // this says nothing (Ctrl-C's code ends the command).
        func refuse(_ entry: InboxEntry, stage: ShareStage, _ exit: () -> ExitCode) -> ExitCode {
            notice.stop()
            interrupt.onInterrupt = nil
            let removed = writes.close { current in
                try? context.inbox.markProcessed(current, lock: draft)
                draft.release()
            }
            guard removed else { return .cancelled }
            report.stage(entry.id, stage)
            return exit()
        }
        var limits = cachedLimits
        if !checkedWithServer {
            switch await (earlyLookup ?? lookUpTarget()).value {
            case .success(let resolved) where resolved != entry.manifest.target:
                var updated = entry.manifest
                updated.target = resolved
                let changed = try? writes.write { (current) throws(InboxError) in
                    try context.inbox.update(current, manifest: updated, lock: draft)
                }
                if let changed = changed ?? nil { entry = changed }
            case .success:
                break
            case .failure(let problem):
                return refuse(entry, stage: problem.stage) { problem.exit(report) }
            }
        }
        if limits == nil, !entry.manifest.attachments.isEmpty {
            limits = await context.instanceLimits()
            switch await PhotoFitting(context: context, request: request, report: report)
                .convert(entry, limits: limits, lock: draft, writes: writes)
            {
            case .success(let converted):
                entry = converted
            case .failure(let refusal):
                return refuse(entry, stage: refusal.stage) { refusal.exit(report) }
            }
            switch Self.fitted(entry.manifest, to: limits, catalog: try? context.assembly.contentTypeCatalog()) {
            case .success(let fitted) where fitted != entry.manifest:
                let changed = try? writes.write { (current) throws(InboxError) in
                    try context.inbox.update(current, manifest: fitted, lock: draft)
                }
                if let changed = changed ?? nil { entry = changed }
            case .success:
                break
            case .failure(let refusal):
                return refuse(entry, stage: refusal.stage) { refusal.exit(report) }
            }
        }
        notice.stop()

        let interruption = DeliveryInterruption(waitingNotice: { report.waitingForAnswer() })
        interrupt.onInterrupt = { interruption.interrupt() }
        // A share without files shows no bar: say what it waits for instead.
        let sendingNotice =
            entry.manifest.attachments.isEmpty ? WaitingNotice(io: report.io, origin: context.origin) : nil
        let delivery = EntryDelivery(
            inbox: context.inbox, engine: context.assembly.deliveryEngine(),
            server: context.sender(limits: limits?.messageLimits),
            progress: ProgressBar(sink: report.io.err, mode: request.progress),
            interruption: interruption, onCancel: request.onCancel, undoWindow: request.undoWindow,
            stage: report.stage)
        let outcome = await delivery.deliver(entry, lock: draft)
        sendingNotice?.stop()
        interrupt.onInterrupt = nil
        return report.finish(
            outcome, entry: entry, context: context, interruption: interruption, undoWindow: request.undoWindow)
    }

    /// The part size at which intake hashes each copy while it makes it:
    /// the server's `upload_part_size` when it lists `sha256-composite`
    /// (then the upload uses the digests instead of a pass over the file);
    /// nil when the limits are not known or the server takes only the
    /// plain SHA-256, which needs the whole file hashed anyway.
    static func partDigestSize(_ limits: InstanceLimits?) -> Int64? {
        guard let limits, let partSize = limits.uploadPartSize, partSize > 0,
            limits.uploadDigestAlgorithms?.contains(UploadDigestAlgorithm.sha256Composite) == true
        else { return nil }
        return partSize
    }

    /// The refusal of a share with more files than `message_max_attachments`, or nil.
    static func tooManyAttachments(_ count: Int, limits: InstanceLimits?, report: SendReport) -> ExitCode? {
        guard let limits, count > limits.messageMaxAttachments else { return nil }
        return report.refused(
            code: "too_many_attachments",
            localized(.tooManyAttachments, ["limit": limits.messageMaxAttachments, "count": count]))
    }

    /// An entry made before the server's limits were known, checked against
    /// them once they are: too many files or a file too large is refused;
    /// a type the server does not take is sent as the nearest type it takes
    /// that the file's type conforms to (`text/csv` as `text/plain`), as
    /// intake would have chosen, or refused when there is none.
    static func fitted(_ manifest: InboxManifest, to limits: InstanceLimits?, catalog: (any ContentTypeCatalog)?)
        -> Result<InboxManifest, ProgramError>
    {
        guard let limits else { return .success(manifest) }
        if manifest.attachments.count > limits.messageMaxAttachments {
            return .failure(
                ProgramError(
                    .rejected,
                    localized(
                        .tooManyAttachments,
                        ["limit": limits.messageMaxAttachments, "count": manifest.attachments.count]),
                    code: "too_many_attachments"))
        }
        let max = limits.fileMaxUploadBytes
        if let file = manifest.attachments.first(where: { $0.size > max }) {
            return .failure(
                ProgramError(
                    .rejected, IntakeError.tooLarge(item: file.fileName, size: file.size, limit: max).localizedText,
                    code: "too_large"))
        }
        guard let accepted = limits.acceptedContentTypes else { return .success(manifest) }
        var fitted = manifest
        for (index, attachment) in manifest.attachments.enumerated() {
            let type = attachment.contentType
            let major = type.split(separator: "/").first.map(String.init) ?? type
            if accepted.contains(type) || accepted.contains(major + "/*") { continue }
            let concrete = accepted.filter { !$0.contains("*") && $0 != "application/octet-stream" }
            if let catalog, let nearest = concrete.first(where: { catalog.conforms(type, to: $0) }) {
                fitted.attachments[index].contentType = nearest
            } else if accepted.contains("application/octet-stream") {
                fitted.attachments[index].contentType = "application/octet-stream"
            } else {
                return .failure(
                    ProgramError(
                        .rejected,
                        IntakeError.unsupportedType(item: attachment.fileName, contentType: type, accepted: accepted)
                            .localizedText,
                        code: "unsupported_type"))
            }
        }
        return .success(fitted)
    }

    static func code(of error: IntakeError) -> String {
        switch error {
        case .unsupportedType, .notConvertible: return "unsupported_type"
        case .tooLarge: return "too_large"
        case .protectedFile: return "protected_file"
        case .metadataNotRemovable: return "metadata_not_removable"
        default: return "intake_failed"
        }
    }

    /// The manifest of the new entry: the comment first, then links and text items.
    static func manifest(
        clientMsgID: UUIDv7, origin: String, target: ShareTarget, request: SendRequest, items: [IntakeItem]
    ) -> InboxManifest {
        var lines: [String] = []
        if !request.comment.isEmpty { lines.append(request.comment) }
        lines += items.filter { !$0.kind.isAttachment }.compactMap(\.text).filter { !$0.isEmpty }
        let attachments = items.filter(\.kind.isAttachment).compactMap { item -> InboxAttachment? in
            guard let stored = item.storedName, let type = item.contentType else { return nil }
            var attachment = InboxAttachment(
                file: stored, fileName: item.fileName ?? stored, contentType: type, size: item.size)
            attachment.partDigests = item.partDigests
            return attachment
        }
        return InboxManifest(
            clientMsgID: clientMsgID.description, serverOrigin: origin, target: target,
            comment: lines.joined(separator: "\n"), title: target.kind == .newPost ? request.newPostTitle : nil,
            createdAt: RFC3339.string(Date()), attachments: attachments)
    }
}

/// Sends one locked inbox entry with the CLI's child session through the
/// delivery engine, with a progress bar and the `--verbose` stages. The
/// entry's manifest is kept in step by ``InboxEntryKeeper``; the lock is
/// released on every path, so the daemon can take a kept entry over at once.
struct EntryDelivery {
    let inbox: any ShareInboxStoring
    let engine: any ShareDelivering
    let server: DeliveryServer
    let progress: ProgressBar
    let interruption: DeliveryInterruption
    let onCancel: CancelPolicy
    /// How long a share kept after Ctrl-C waits before share-daemon may send it.
    var undoWindow = UndoWindow.standard
    /// Says each stage of the share, by its id (`--verbose`).
    var stage: @Sendable (String, ShareStage) -> Void = { _, _ in }

    /// Sends the entry; never throws: every failure is an outcome.
    func deliver(_ entry: InboxEntry, lock: any InboxEntryLock) async -> DeliveryOutcome {
        defer {
            progress.finish()
            lock.release()
        }
        let names = entry.manifest.attachments.map(\.fileName)
        let started = Mutex(Set<Int>())
        let id = entry.id
        let step: @Sendable (ShareStage) -> Void = { [stage] in stage(id, $0) }
        let progress = self.progress
        let updater: @Sendable (SendProgress) -> Void = { event in
            switch event {
            case .uploading(let index, let count, let value):
                if started.withLock({ $0.insert(index).inserted }) {
                    step(.uploading(fileName: names[index], bytes: value.totalBytes))
                }
                let label = count > 1 ? "\(index + 1)/\(count) \(names[index])" : names[index]
                progress.update(label: label, done: value.acknowledgedBytes, total: value.totalBytes)
            case .uploaded(let index, let uploadID):
                progress.finish()
                step(.uploaded(fileName: names[index], uploadID: uploadID))
            case .creatingMessage:
                progress.finish()
                step(.creatingMessage)
            }
        }
        let request = DeliveryRequest(
            server: server, interruption: interruption, keepsOnCancel: onCancel == .keep, progress: updater)
        return await engine.deliver(
            request, keeping: InboxEntryKeeper(inbox: inbox, entry: entry, lock: lock, undoWindow: undoWindow))
    }
}

/// A locked inbox entry as the delivery engine keeps it: completed uploads,
/// attempts and the last error go into its manifest; a sent or refused
/// entry leaves the inbox, one that cannot be read as it was written is
/// quarantined, and a kept one waits for share-daemon (after its undo
/// window when the person interrupted). The writes are best effort: the
/// outcome is told whatever the disk says.
final class InboxEntryKeeper: DeliveryKeeping {
    typealias Failure = Never

    private let inbox: any ShareInboxStoring
    private let lock: any InboxEntryLock
    private let undoWindow: UndoWindow
    /// The entry as last written (the engine reports uploads from the sender's task).
    private let current: Mutex<InboxEntry>

    /// - Parameters:
    ///   - inbox: the share inbox.
    ///   - entry: the entry, locked by `lock`.
    ///   - lock: the entry's lock, held by this process.
    ///   - undoWindow: how long a share kept after Ctrl-C waits.
    init(inbox: any ShareInboxStoring, entry: InboxEntry, lock: any InboxEntryLock, undoWindow: UndoWindow) {
        self.inbox = inbox
        self.lock = lock
        self.undoWindow = undoWindow
        current = Mutex(entry)
    }

    var place: DeliveryPlace { .inboxEntry }

    func share() -> KeptShare {
        Self.outgoingShare(from: current.withLock { $0 })
    }

    func uploaded(index: Int, uploadID: String) {
        // Durable before the message is created: a later attempt
        // (this process or the daemon) must attach the same upload.
        current.withLock { entry in
            var manifest = entry.manifest
            manifest.attachments[index].completedUploadID = uploadID
            if let updated = try? inbox.update(entry, manifest: manifest, lock: lock) { entry = updated }
        }
    }

    func sent(_ message: SentMessage) {
        try? inbox.markProcessed(latest, lock: lock)
    }

    func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) -> Int64? {
        let latest = self.latest
        var manifest = latest.manifest.countingAttempt()
        manifest.lastError = reason.description
        // A message asked for and not answered may be on the server.
        manifest.messageRequested = manifest.messageRequested || messageRequested
        manifest.notBefore = nil
        if interrupted { manifest = undoWindow.starting(on: manifest) }
        _ = try? inbox.update(latest, manifest: manifest, lock: lock)
        return nil
    }

    func refuse(_ refusal: DeliveryRefusal) -> DeliveryPlace? {
        if refusal.stage == .keptShare {
            _ = try? inbox.quarantine(id: latest.id, reason: refusal.message)
            return .quarantine
        }
        try? inbox.markProcessed(latest, lock: lock)
        return nil
    }

    func cancelled(keep: Bool, mayBeOnServer: Bool) -> Bool {
        let latest = self.latest
        if mayBeOnServer {
            var manifest = undoWindow.starting(on: latest.manifest).countingAttempt()
            manifest.lastError = "interrupted before the server answered the message"
            manifest.messageRequested = true
            _ = try? inbox.update(latest, manifest: manifest, lock: lock)
            return true
        }
        if !keep {
            try? inbox.markProcessed(latest, lock: lock)
            return false
        }
        // Kept, but not sent before the person had the undo window to take it back.
        _ = try? inbox.update(latest, manifest: undoWindow.starting(on: latest.manifest), lock: lock)
        return true
    }

    private var latest: InboxEntry { current.withLock { $0 } }

    /// The share an entry describes, with its files as they are on disk now;
    /// an entry that does not match its manifest is refused at the stage of
    /// the kept share (and quarantined).
    static func outgoingShare(from entry: InboxEntry) -> KeptShare {
        func unusable(_ reason: String) -> KeptShare {
            .unusable(DeliveryRefusal(stage: .keptShare, code: "entry_unusable", message: reason))
        }
        let manifest = entry.manifest
        guard let id = try? UUIDv7(string: manifest.clientMsgID) else {
            return unusable("client_msg_id \(manifest.clientMsgID) is not a UUIDv7")
        }
        var sources: [UploadSource] = []
        var completed: [Int: String] = [:]
        for (index, attachment) in manifest.attachments.enumerated() {
            do {
                let source = try ClientAssembly.uploadSource(
                    path: entry.path(of: attachment), fileName: attachment.fileName,
                    contentType: attachment.contentType)
                guard source.size == attachment.size else {
                    return unusable("\(attachment.file) has \(source.size) bytes, the manifest says \(attachment.size)")
                }
                var withDigests = source
                withDigests.partDigests = attachment.partDigests
                sources.append(withDigests)
            } catch .failed(.fileChanged(_, let why)) {
                // The words manifests and `share inbox list` have always shown for such a file.
                return unusable("\(attachment.file): the file changed: \(why)")
            } catch {
                return unusable("\(attachment.file): \(error)")
            }
            if let done = attachment.completedUploadID { completed[index] = done }
        }
        return .readable(
            OutgoingShare(
                clientMsgID: id, target: manifest.target, text: manifest.comment, attachments: sources,
                title: manifest.title, completedUploadIDs: completed))
    }
}

/// The stages of a share that `--verbose` names, one line each after the
/// share's id (`share send: ID: written to the share inbox ...`): the CLI's
/// half of the story that `journalctl --user -u share-daemon | grep ID`
/// continues. Ids, counts, names and reasons; never the message's text.
enum ShareStage: Sendable {
    case loading(items: Int)
    case written(attachments: Int, target: ShareTarget)
    /// Written with `--queue`: the daemon sends it.
    case queued
    case uploading(fileName: String, bytes: Int64)
    case uploaded(fileName: String, uploadID: String)
    case creatingMessage
    case sent(messageID: String, replayed: Bool)
    case kept(reason: String)
    /// Refused by the server or, before anything was sent, by what the CLI knew.
    case refused(code: String?, reason: String)
    case interrupted(kept: Bool, mayBeOnServer: Bool)
    case quarantined(reason: String)
    /// A photo converted into JPEG for a server that takes no other image type.
    case converted(item: String, from: String, fileName: String, width: Int, height: Int, removedLocation: Bool)

    /// The conversion of a loaded item, nil for an item kept as it was.
    static func conversion(of item: IntakeItem) -> ShareStage? {
        guard let conversion = item.conversion else { return nil }
        return .converted(
            item: item.origin, from: conversion.originalContentType, fileName: item.fileName ?? "",
            width: conversion.width, height: conversion.height, removedLocation: conversion.removedLocation)
    }

    /// The words of the line (English, like the daemon's log).
    var text: String {
        switch self {
        case .loading(let items): return "loading \(items) item(s)"
        case .written(let attachments, let target):
            return "written to the share inbox (\(attachments) attachment(s), to \(target.kind.rawValue):\(target.id))"
        case .queued: return "kept for share-daemon (--queue)"
        case .uploading(let name, let bytes): return "uploading \(name) (\(bytes) bytes)"
        case .uploaded(let name, let uploadID): return "\(name) uploaded as \(uploadID)"
        case .creatingMessage: return "creating the message"
        case .sent(let messageID, let replayed): return "sent as message \(messageID)\(replayed ? " (a replay)" : "")"
        case .kept(let reason): return "kept for share-daemon: \(reason)"
        case .refused(let code?, let reason): return "refused (\(code)): \(reason)"
        case .refused(nil, let reason): return "refused: \(reason)"
        case .interrupted(let kept, let mayBeOnServer):
            if mayBeOnServer { return "interrupted; kept for share-daemon, the message may already be on the server" }
            return kept ? "interrupted; kept for share-daemon" : "interrupted; removed"
        case .quarantined(let reason): return "quarantined: \(reason)"
        case .converted(let item, let from, let fileName, let width, let height, let removedLocation):
            let location = removedLocation ? "; its location was removed (--keep-metadata keeps it)" : ""
            return "\(item): \(from) converted to JPEG as \(fileName) (\(width) × \(height))\(location)"
        }
    }
}

/// SIGINT while `share send` or `share inbox retry` works: the handler in
/// charge runs on the relay's thread (SignalRelay, watched from `init`)
/// instead of the default action killing the process halfway, and
/// ``race(_:)`` returns the exit code of the steps or of Ctrl-C, whichever
/// ends first, so that only `main` ends the process.
final class InterruptHandler: Sendable {
    /// Where the race stands: nobody waits yet, `race` waits, an exit code
    /// came before `race` waited, or the race is over.
    private enum Ending {
        case running
        case waiting(CheckedContinuation<ExitCode, Never>)
        case ended(ExitCode)
        case over
    }

    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    private let ending = Mutex<Ending>(.running)

    init() {
        SignalRelay.interrupt.watch { [weak self] in
            guard let self else { return }
            // Before anything is kept there is nothing to clean up: end with the code for Ctrl-C.
            if let action = self.onInterrupt { action() } else { self.end(.cancelled) }
        }
    }

    /// What Ctrl-C does now; nil ends the command with the code for Ctrl-C.
    var onInterrupt: (@Sendable () -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Runs `steps` in a task of their own and returns the first exit code:
    /// theirs, or the one Ctrl-C's handler gives through ``end(_:)``. Steps
    /// that lose go on until the process ends: they may be waiting for the
    /// network, and what they still try to write was closed to them by the
    /// handler that won (`EntryWrites`).
    /// - Parameter steps: the command's work.
    /// - Returns: the exit code that came first.
    func race(_ steps: @escaping @Sendable () async -> ExitCode) async -> ExitCode {
        Task { end(await steps()) }
        return await withCheckedContinuation { continuation in
            ending.withLock { state in
                if case .ended(let code) = state {
                    state = .over
                    continuation.resume(returning: code)
                } else {
                    state = .waiting(continuation)
                }
            }
        }
    }

    /// Ends the race with `code`, unless it is over already.
    /// - Parameter code: the command's exit code.
    func end(_ code: ExitCode) {
        ending.withLock { state in
            switch state {
            case .running:
                state = .ended(code)
            case .waiting(let continuation):
                state = .over
                continuation.resume(returning: code)
            case .ended, .over:
                break
            }
        }
    }

    /// Gives SIGINT its default action back.
    func restore() {
        SignalRelay.interrupt.unwatch()
    }
}
