import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitDeliveryInterface
import ShareKitInboxInterface
import ShareKitMessagesInterface
import ShareKitOutboxInterface

/// `share inbox`: what waits in the share inbox, and acting on one entry.
enum InboxCommand {
    static var help: String { t(.inboxHelp) }

    /// The subcommands of `share inbox`, in help order.
    static let subcommands = ShareCommands.inbox.subcommands.map(\.name)

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") {
            io.out.write(help)
            return .success
        }
        guard let sub = arguments.first else {
            io.err.write(help)
            return .usage
        }
        guard subcommands.contains(sub) else {
            let message = t(
                .unknownSubcommand, ["sub": sub, "suggestion": Suggestion.didYouMean(sub, in: subcommands)])
            io.err.write("share inbox: " + t(.runHelp, ["message": message, "command": "share inbox"]) + "\n")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        let parsed: ParsedArguments
        do {
            // Each subcommand accepts exactly its declared options.
            parsed = try ParsedArguments(rest, command: ShareCommands.declaration("inbox", sub) ?? ShareCommands.inbox)
            let needsID = sub != "list" && sub != "clean"
            guard parsed.positionals.count == (needsID ? 1 : 0) else {
                throw ProgramError.usage(localized(needsID ? .inboxNeedsID : .inboxTakesNoID, ["sub": sub]))
            }
        } catch {
            io.err.write(
                "share inbox: "
                    + t(.runHelp, ["message": LocalizedText(describing: error).localized, "command": "share inbox"])
                    + "\n")
            return .usage
        }
        let json = parsed.has(Options.json)
        if sub == "clean" {
            // Only the inbox: the cleaner share send starts in the
            // background opens nothing else (no outbox, no connection).
            do {
                return clean(try ClientAssembly(environment: environment).shareInbox(), io: io, json: json)
            } catch {
                io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
                return .failure
            }
        }
        let shares: ShareLocator
        do {
            shares = try ShareLocator(environment: environment)
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        if sub == "list" { return list(shares, io: io, json: json) }
        let found: LocatedShare
        switch shares.find(parsed.positionals[0]) {
        case .success(let share): found = share
        case .failure(let problem): return problem.inboxReport(io: io, json: json)
        }
        // The id every line names the share by: the one a person can type.
        let short = shares.shortIDs()[found.id] ?? TerminalText.neutralised(found.id)
        switch (sub, found) {
        case ("show", _):
            return show(found, shortID: short, shares: shares, io: io, json: json)
        case ("drop", .inbox(let id)), ("drop", .quarantined(let id)):
            return drop(shares.inbox, id: id, shortID: short, io: io, json: json)
        case ("drop", .outbox(let item)):
            return dropFromOutbox(item, shortID: short, shares: shares, io: io, json: json)
        case ("retry", .outbox(let item)):
            return retryInOutbox(item, shortID: short, shares: shares, io: io, json: json)
        case ("retry", .quarantined):
            io.err.write("share inbox: " + t(.inboxQuarantinedNoRetry, ["id": short]) + "\n")
            return .failure
        case ("retry", .inbox(let id)):
            return await retry(parsed, id: id, inbox: shares.inbox, io: io, environment: environment)
        default:
            return .usage
        }
    }

    // MARK: - list and show

    static func list(_ shares: ShareLocator, io: ProgramIO, json: Bool) -> ExitCode {
        guard let scan = scanOrReport(shares.inbox, io: io) else { return .failure }
        let outboxItems: [OutboxItem]
        let counts: OutboxCounts?
        do {
            outboxItems = try shares.outboxItems()
            counts = try shares.outbox?.counts()
        } catch {
            io.err.write(
                "share inbox: " + t(.outboxUnreadable, ["error": LocalizedText(describing: error).localized]) + "\n")
            return .failure
        }
        // A daemon whose outbox this environment does not name (another
        // SHAREKIT_STATE_DIR) still says what it refused, through its socket.
        let daemonReport =
            shares.outbox == nil
            ? try? shares.daemon.status().get() : nil
        let reported = daemonReport?.failed ?? []
        let inOutbox = Set(outboxItems.map(\.clientMsgID.description))
        let entries = scan.entries.filter { !inOutbox.contains($0.id) }
        // Every line names a share by an id a person can type.
        let short = shares.shortIDs(including: reported.map(\.clientMsgID))
        func named(_ id: String) -> String { short[id] ?? TerminalText.neutralised(id) }
        let stale = Set(scan.stale)
        let daemonRunning = shares.daemon.isListening()
        if json {
            io.writeJSON([
                "entries": .array(
                    entries.map { entryObject($0, stale: stale.contains($0.id), shortID: short[$0.id]) }),
                "outbox": .array(outboxItems.map { outboxObject($0, shortID: short[$0.clientMsgID.description]) }),
                "quarantined": .array(
                    scan.quarantined.map {
                        ["id": JSONValue($0.id), "reason": JSONValue($0.reason), "directory": JSONValue($0.directory)]
                    }),
                "stale": JSONValue(scan.stale),
                "daemon_running": JSONValue(daemonRunning),
                "daemon_outbox": daemonReport.map { report -> JSONValue in
                    let object = report.jsonValue
                    return ["outbox": object["outbox"] ?? nil, "failed": object["failed"] ?? []]
                } ?? daemonOutboxJSON(counts, outboxItems),
            ])
            return .success
        }
        if entries.isEmpty && scan.quarantined.isEmpty && outboxItems.isEmpty && reported.isEmpty {
            io.out.write(t(.nothingWaits) + "\n")
            return .success
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for entry in entries {
            let m = entry.manifest
            let bytes = m.attachments.reduce(Int64(0)) { $0 + $1.size }
            var state = entry.isLocked ? t(.stateBeingSentInbox) : t(.stateWaitingInbox)
            if !entry.isLocked, case .waiting(let until) = m.undoWait(now: now) {
                state = t(.stateUndoWindow, ["wait": age((until - now + 999) / 1000), "id": named(entry.id)])
            }
            if stale.contains(entry.id) { state = t(.stateOlderThanMaximum, ["state": state]) }
            // Manifests and their reasons hold other users' words (target
            // names, the server's problem details): shown, never obeyed.
            io.out.write(
                t(
                    .listLine,
                    [
                        "id": named(entry.id), "age": age(entry.ageSeconds),
                        "target": TerminalText.neutralised(m.target.displayPath), "files": m.attachments.count,
                        "bytes": ProgressBar.formatBytes(bytes), "attempts": m.attempts, "state": state,
                    ]) + "\n")
            if let error = m.lastError {
                io.out.write(t(.lastErrorLine, ["error": kept(error)]) + "\n")
            }
        }
        for item in outboxItems {
            let safe = TerminalText.neutralised
            let id = named(item.clientMsgID.description)
            if item.state == .failed {
                io.out.write(
                    t(
                        .outboxRefusedLine,
                        [
                            "id": id,
                            "reason": item.lastError.map(kept) ?? safe(item.failureCode ?? t(.refusedFallback)),
                            "target": safe(item.target.displayPath),
                        ]) + "\n")
                continue
            }
            let bytes = item.attachments.reduce(Int64(0)) { $0 + $1.size }
            var state: String
            if item.state == .sending {
                state = t(.stateBeingSentDaemon)
            } else {
                state = t(.stateWaitingOutbox)
                if item.nextAttemptAt > now {
                    state = t(.stateNextAttempt, ["state": state, "wait": age((item.nextAttemptAt - now) / 1000)])
                }
            }
            io.out.write(
                t(
                    .listLine,
                    [
                        "id": id, "age": age(max(0, now - item.createdAt) / 1000),
                        "target": safe(item.target.displayPath), "files": item.attachments.count,
                        "bytes": ProgressBar.formatBytes(bytes), "attempts": item.attempts, "state": state,
                    ]) + "\n")
            if let error = item.lastError { io.out.write(t(.lastErrorLine, ["error": kept(error)]) + "\n") }
        }
        for item in reported {
            io.out.write(
                t(
                    .reportedRefusedLine,
                    ["id": named(item.clientMsgID), "reason": kept(item.reason), "target": item.target])
                    + "\n")
        }
        for entry in scan.quarantined {
            io.out.write(
                t(
                    .quarantinedLine,
                    ["id": named(entry.id), "reason": TerminalText.neutralised(entry.reason)])
                    + "\n")
        }
        if !scan.stale.isEmpty {
            io.err.write("share inbox: " + t(.staleEntries, ["count": scan.stale.count]) + "\n")
        }
        let waiting = entries.contains { !$0.isLocked } || outboxItems.contains { $0.state != .failed }
        if waiting && !daemonRunning { io.err.write("share inbox: " + t(.daemonNotRunning) + "\n") }
        return .success
    }

    /// `label:` and a value, the values of all labels of the current
    /// language in one column (`share inbox show`).
    static func field(_ label: CLIText, _ value: String) -> String { field(t(label), value) }

    /// `label:` and a value in the column of ``field(_:_:)``, for a label
    /// that is the same in every language (`client_msg_id`).
    static func field(_ label: String, _ value: String) -> String {
        let labels: [CLIText] = [
            .fieldID, .fieldWhere, .fieldServer, .fieldTarget, .fieldCreated, .fieldAttempts, .fieldTitle,
            .fieldRefused, .fieldLastError, .fieldMessage, .fieldFile, .fieldText,
        ]
        let width = max(labels.map { t($0).count }.max() ?? 0, "client_msg_id".count) + 2
        return (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value + "\n"
    }

    /// The text and the files of a share, for `share inbox show`: the same
    /// lines whether the share waits in the inbox or in the daemon's outbox.
    /// Everything in them may be another user's words, so it is neutralised.
    static func contentLines(
        text: String, files: [(name: String, type: String, size: Int64, uploadID: String?)]
    ) -> String {
        let safe = TerminalText.neutralised
        var lines = ""
        if !text.isEmpty {
            lines += t(.fieldText) + ":\n" + text.split(separator: "\n").map { "  \(safe(String($0)))\n" }.joined()
        }
        for file in files {
            let done = file.uploadID.map { t(.uploadedAs, ["upload": safe($0)]) } ?? ""
            lines += field(
                .fieldFile, "\(safe(file.name))  \(safe(file.type))  \(ProgressBar.formatBytes(file.size))\(done)")
        }
        return lines
    }

    static func show(_ found: LocatedShare, shortID: String, shares: ShareLocator, io: ProgramIO, json: Bool)
        -> ExitCode
    {
        guard let scan = scanOrReport(shares.inbox, io: io) else { return .failure }
        let safe = TerminalText.neutralised
        switch found {
        case .outbox(let item):
            if json {
                io.writeJSON(outboxObject(item, shortID: shortID))
                return .success
            }
            var text =
                field(.fieldID, shortID)
                + field(.fieldWhere, t(.whereOutbox, ["state": outboxState(item)]))
                + field("client_msg_id", item.clientMsgID.description)
                + field(.fieldServer, safe(item.serverOrigin))
                + field(
                    .fieldTarget,
                    "\(safe(item.target.displayPath)) (\(item.target.kind.rawValue):\(safe(item.target.id)))")
                + field(.fieldCreated, RFC3339.string(Date(timeIntervalSince1970: Double(item.createdAt) / 1000)))
                + field(.fieldAttempts, String(item.attempts))
            if let title = item.title { text += field(.fieldTitle, safe(title)) }
            if let code = item.failureCode, item.state == .failed { text += field(.fieldRefused, safe(code)) }
            if let error = item.lastError { text += field(.fieldLastError, kept(error)) }
            if let message = item.messageID { text += field(.fieldMessage, safe(message)) }
            text += contentLines(
                text: item.text,
                files: item.attachments.map { ($0.fileName, $0.contentType, $0.size, $0.completedUploadID) })
            io.out.write(text)
            return .success
        case .inbox(let id):
            guard let entry = scan.entries.first(where: { $0.id == id }) else { break }
            if json {
                io.writeJSON(entryObject(entry, stale: scan.stale.contains(id), shortID: shortID))
                return .success
            }
            let m = entry.manifest
            var state = entry.isLocked ? t(.stateBeingSentNow) : t(.stateWaiting)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            if !entry.isLocked, case .waiting(let until) = m.undoWait(now: now) {
                state = t(.stateUndoWindow, ["wait": age((until - now + 999) / 1000), "id": shortID])
            }
            var text =
                field(.fieldID, shortID) + field(.fieldWhere, t(.whereInbox, ["state": state]))
                + field("client_msg_id", m.clientMsgID)
                + field(.fieldServer, safe(m.serverOrigin))
                + field(.fieldTarget, "\(safe(m.target.displayPath)) (\(m.target.kind.rawValue):\(safe(m.target.id)))")
                + field(.fieldCreated, t(.createdAgo, ["time": m.createdAt, "age": age(entry.ageSeconds)]))
                + field(.fieldAttempts, "\(m.attempts)" + (entry.isLocked ? t(.attemptsBeingSent) : ""))
            if let title = m.title { text += field(.fieldTitle, safe(title)) }
            if let error = m.lastError { text += field(.fieldLastError, kept(error)) }
            text += contentLines(
                text: m.comment,
                files: m.attachments.map { ($0.fileName, $0.contentType, $0.size, $0.completedUploadID) })
            io.out.write(text)
            return .success
        case .quarantined(let id):
            guard let entry = scan.quarantined.first(where: { $0.id == id }) else { break }
            if json {
                io.writeJSON([
                    "id": JSONValue(entry.id), "quarantined": true, "reason": JSONValue(entry.reason),
                    "directory": JSONValue(entry.directory),
                ])
            } else {
                io.out.write(
                    t(
                        .quarantinedShow,
                        ["id": shortID, "reason": safe(entry.reason), "directory": safe(entry.directory)])
                        + "\n")
            }
            return .success
        }
        io.err.write("share inbox: " + t(.noEntryListHint, ["id": safe(found.id)]) + "\n")
        return .failure
    }

    /// The inbox as it is now, or nil after saying why it cannot be read.
    static func scanOrReport(_ inbox: any ShareInboxStoring, io: ProgramIO) -> InboxScan? {
        do {
            return try inbox.scan()
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return nil
        }
    }

    // MARK: - drop and retry

    /// Drops an entry of the share inbox (or of its quarantine). One whose
    /// message may already be on the server is dropped with a word that it
    /// may have been sent: dropping stops ShareKit, not the server.
    /// `share inbox clean`: deletes the leftovers of completed, dropped and
    /// killed shares now (`share send` starts it in the background).
    static func clean(_ inbox: any ShareInboxStoring, io: ProgramIO, json: Bool) -> ExitCode {
        let removed: Int
        do {
            removed = try inbox.removeLeftovers()
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        if json {
            io.writeJSON(["status": "cleaned", "removed": JSONValue(removed)])
        } else {
            io.out.write(
                (removed == 0 ? t(.inboxNothingToClean) : t(.inboxCleaned, ["count": String(removed)])) + "\n")
        }
        return .success
    }

    static func drop(_ inbox: any ShareInboxStoring, id: String, shortID: String, io: ProgramIO, json: Bool)
        -> ExitCode
    {
        let entry = (try? inbox.scan())?.entries.first { $0.id == id }
        let mayBeOnServer = entry?.manifest.messageRequested ?? false
        do {
            guard try inbox.drop(id: id) else {
                io.err.write("share inbox: " + t(.noEntry, ["id": id]) + "\n")
                return .failure
            }
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        saidDropped(
            id: id, shortID: shortID, target: entry?.manifest.target, mayBeOnServer: mayBeOnServer, io: io, json: json)
        return .success
    }

    /// `dropped ID`, and for a share whose message may already be on the
    /// server, that it may have been sent and where to look.
    static func saidDropped(
        id: String, shortID: String, target: ShareTarget?, mayBeOnServer: Bool, io: ProgramIO, json: Bool
    ) {
        if json {
            io.writeJSON([
                "status": "dropped", "id": JSONValue(id), "short_id": JSONValue(shortID),
                "may_be_on_server": JSONValue(mayBeOnServer),
            ])
        } else if mayBeOnServer {
            let path = TerminalText.neutralised(target?.displayPath ?? "")
            io.out.write(t(.droppedMayBeOnServer, ["id": shortID, "path": path]) + "\n")
        } else {
            io.out.write(t(.dropped, ["id": shortID]) + "\n")
        }
    }

    static func retry(
        _ parsed: ParsedArguments, id: String, inbox: any ShareInboxStoring, io: ProgramIO,
        environment: [String: String]
    ) async -> ExitCode {
        let report = SendReport(
            io: io, json: parsed.has(Options.json), verbose: parsed.verbose(environment: environment))
        guard let policy = CancelPolicy(option: parsed.value(Options.onCancel) ?? "keep") else {
            return report.usage(localized(.onCancelValues))
        }
        let window: UndoWindow
        do {
            window = try UndoWindow.parse(parsed.value(Options.undoWindow))
        } catch {
            return report.usage(LocalizedText(describing: error))
        }
        let mode: ProgressMode
        do {
            mode = try ProgressMode.parse(parsed.value(Options.progress), noProgress: parsed.has(Options.noProgress))
        } catch {
            return report.usage(LocalizedText(describing: error))
        }
        let held: (any InboxEntryLock, InboxEntry)?
        do {
            held = try inbox.lock(id: id, wait: false)
        } catch {
            return report.failure(LocalizedText(describing: error))
        }
        guard let (lock, entry) = held else {
            let exists = ((try? inbox.scan())?.entries ?? []).contains { $0.id == id }
            return report.failure(
                exists ? localized(.entryBusy, ["id": id]) : localized(.noEntry, ["id": id]))
        }
        let madeFor = entry.manifest.serverOrigin
        if let server = parsed.value(Options.server), !ServerOrigin.same(server, madeFor) {
            // Its target names a thread or channel of that server: anywhere else it is another place.
            lock.release()
            return report.usage(localized(.retryOtherServer, ["id": id, "server": madeFor]))
        }
        let context: CLIContext
        do {
            context = try CLIContext(
                environment: environment, server: nil, shareOrigin: madeFor, requiresAccount: true)
        } catch let error as ProgramError where error.isUsage {
            lock.release()
            return report.usage(error.localizedText)
        } catch let error as ProgramError where error.code == ProgramError.notLoggedInCode {
            // Not "kept for share-daemon": the daemon sends only for the account's server.
            lock.release()
            return notLoggedIn(id: entry.id, origin: error.serverOrigin ?? "", io: io, json: report.json)
        } catch {
            lock.release()
            return report.failure(LocalizedText(describing: error))
        }
        let interrupt = InterruptHandler()
        defer { interrupt.restore() }
        let interruption = DeliveryInterruption(waitingNotice: { report.waitingForAnswer() })
        interrupt.onInterrupt = { interruption.interrupt() }
        // Ctrl-C once the share is told of (after the delivery) ends the
        // command with its code, as `share send` does.
        return await interrupt.race { [inbox, entry, lock, report, io] in
            let limits = await context.instanceLimits()
            let delivery = EntryDelivery(
                inbox: inbox, engine: context.assembly.deliveryEngine(),
                server: context.sender(limits: limits?.messageLimits),
                progress: ProgressBar(sink: io.err, mode: mode),
                interruption: interruption, onCancel: policy, undoWindow: window, stage: report.stage)
            let outcome = await delivery.deliver(entry, lock: lock)
            interrupt.onInterrupt = nil
            return report.finish(
                outcome, entry: entry, context: context, interruption: interruption, undoWindow: window)
        }
    }

    /// Says that a share cannot be sent because nobody is logged in at its
    /// server on this device (neither `share` nor share-daemon can send it),
    /// and how to go on; the share stays as it is.
    /// - Returns: 1, the share was not sent.
    static func notLoggedIn(id: String, origin: String, io: ProgramIO, json: Bool) -> ExitCode {
        let message = localized(.retryNotLoggedIn, ["id": id, "origin": TerminalText.neutralised(origin)])
        if json {
            io.writeJSON([
                "status": "error", "code": "not_logged_in", "id": JSONValue(id),
                "server_origin": JSONValue(origin), "error": JSONValue(message.english),
            ])
        }
        io.err.write("share inbox: " + message.localized + "\n")
        return .failure
    }

    // MARK: - The daemon's outbox

    /// Drops a share of the daemon's outbox that waits or was refused; one
    /// being sent right now is left alone.
    static func dropFromOutbox(
        _ item: OutboxItem, shortID: String, shares: ShareLocator, io: ProgramIO, json: Bool
    ) -> ExitCode {
        let id = item.clientMsgID.description
        guard item.state != .sending else {
            io.err.write("share inbox: " + t(.daemonSendingTryLater, ["id": shortID]) + "\n")
            return .failure
        }
        do {
            guard try shares.outbox?.remove(item.clientMsgID) == true else {
                io.err.write("share inbox: " + t(.noEntry, ["id": shortID]) + "\n")
                return .failure
            }
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        saidDropped(
            id: id, shortID: shortID, target: item.target, mayBeOnServer: mayHaveBeenSent(item), io: io, json: json)
        return .success
    }

    /// Whether an outbox item's message may already be on the server: an
    /// attempt was made with every upload done, so it may have asked for
    /// the message and lost the answer. The outbox keeps no finer record,
    /// so this says "may" for some shares whose message was never asked for.
    static func mayHaveBeenSent(_ item: OutboxItem) -> Bool {
        item.state != .failed && item.attempts > 0 && item.attachments.allSatisfy { $0.completedUploadID != nil }
    }

    /// Makes a share of the daemon's outbox (waiting, or refused and fixed
    /// since) due again at once, and wakes the daemon.
    static func retryInOutbox(
        _ item: OutboxItem, shortID: String, shares: ShareLocator, io: ProgramIO, json: Bool
    ) -> ExitCode {
        let id = item.clientMsgID.description
        switch item.state {
        case .sending:
            io.err.write("share inbox: " + t(.daemonSending, ["id": shortID]) + "\n")
            return .failure
        case .sent:
            io.err.write(
                "share inbox: "
                    + t(.alreadyOnServer, ["id": shortID, "message": TerminalText.neutralised(item.messageID ?? "?")])
                    + "\n"
            )
            return .failure
        case .pending, .failed:
            break
        }
        // share-daemon sends only for the account's server: for another, "it will send it" would be untrue.
        guard CLIContext.hasAccount(shares.assembly, at: item.serverOrigin) else {
            return notLoggedIn(id: id, origin: item.serverOrigin, io: io, json: json)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        do {
            try shares.outbox?.markRetry(
                item.clientMsgID, reason: item.lastError ?? "retried", nextAttemptAt: now, now: now)
        } catch {
            io.err.write("share inbox: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        let running = shares.daemon.wake()
        let path = TerminalText.neutralised(item.target.displayPath)
        if json {
            io.writeJSON([
                "status": "queued", "id": JSONValue(id), "client_msg_id": JSONValue(id),
                "target": SendReport.target(item.target), "daemon_running": JSONValue(running),
            ])
        } else {
            io.out.write(
                running
                    ? t(.retryNow, ["id": shortID, "path": path]) + "\n"
                    : t(.retryDue, ["id": shortID, "advice": t(.daemonNotRunning), "path": path]) + "\n")
        }
        return .success
    }

    /// The `daemon_outbox` member of `share inbox list --json`: the outbox
    /// counts and the refused shares (null when no daemon ever made an outbox).
    static func daemonOutboxJSON(_ counts: OutboxCounts?, _ items: [OutboxItem]) -> JSONValue {
        guard let counts else { return nil }
        return [
            "outbox": [
                "pending": JSONValue(counts.pending), "sending": JSONValue(counts.sending),
                "sent": JSONValue(counts.sent), "failed": JSONValue(counts.failed),
            ],
            "failed": .array(
                items.filter { $0.state == .failed }.map {
                    [
                        "client_msg_id": JSONValue($0.clientMsgID.description),
                        "target": JSONValue($0.target.displayPath),
                        "reason": JSONValue($0.lastError ?? $0.failureCode ?? "refused"),
                    ]
                }),
        ]
    }

    /// How a person reads an outbox item's state.
    static func outboxState(_ item: OutboxItem) -> String {
        switch item.state {
        case .pending: return t(.outboxStateWaiting)
        case .sending: return t(.outboxStateSending)
        case .sent: return t(.outboxStateSent)
        case .failed: return t(.outboxStateFailed)
        }
    }

    /// One outbox item as `share inbox list --json` and `show --json` print it.
    static func outboxObject(_ item: OutboxItem, shortID: String?) -> JSONValue {
        [
            "id": JSONValue(item.clientMsgID.description), "client_msg_id": JSONValue(item.clientMsgID.description),
            "short_id": JSONValue(shortID),
            "where": "outbox", "state": JSONValue(item.state.rawValue),
            "server_origin": JSONValue(item.serverOrigin), "target": SendReport.target(item.target),
            "comment": JSONValue(item.text), "title": JSONValue(item.title),
            "created_at": JSONValue(RFC3339.string(Date(timeIntervalSince1970: Double(item.createdAt) / 1000))),
            "attempts": JSONValue(item.attempts), "last_error": JSONValue(item.lastError),
            "failure_code": JSONValue(item.failureCode), "message_id": JSONValue(item.messageID),
            "attachments": .array(
                item.attachments.map {
                    [
                        "file_name": JSONValue($0.fileName), "content_type": JSONValue($0.contentType),
                        "size": JSONValue($0.size), "completed_upload_id": JSONValue($0.completedUploadID),
                    ]
                }),
        ]
    }

    // MARK: - Formatting

    /// One entry as `share inbox list --json` and `show --json` print it.
    static func entryObject(_ entry: InboxEntry, stale: Bool, shortID: String?) -> JSONValue {
        let m = entry.manifest
        return [
            "id": JSONValue(entry.id), "client_msg_id": JSONValue(m.clientMsgID), "short_id": JSONValue(shortID),
            "where": "inbox",
            "server_origin": JSONValue(m.serverOrigin), "target": SendReport.target(m.target),
            "comment": JSONValue(m.comment), "title": JSONValue(m.title), "created_at": JSONValue(m.createdAt),
            "age_seconds": JSONValue(entry.ageSeconds), "attempts": JSONValue(m.attempts),
            "last_error": JSONValue(m.lastError), "locked": JSONValue(entry.isLocked), "stale": JSONValue(stale),
            "attachments": .array(
                m.attachments.map {
                    [
                        "file_name": JSONValue($0.fileName), "content_type": JSONValue($0.contentType),
                        "size": JSONValue($0.size), "completed_upload_id": JSONValue($0.completedUploadID),
                    ]
                }),
        ]
    }

    /// A reason kept in English (a manifest's or the outbox's last error, a
    /// refusal) in the person's language where ShareKit wrote it, else as it
    /// is; neutralised, as it may quote the server.
    static func kept(_ reason: String) -> String {
        TerminalText.neutralised(RetryReason.localizedKept(reason).localized)
    }

    /// `42s`, `5m`, `3h`, `2d`.
    static func age(_ seconds: Int64) -> String {
        switch seconds {
        case ..<60: return "\(max(0, seconds))s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default: return "\(seconds / 86_400)d"
        }
    }
}
