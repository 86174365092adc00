import Foundation
public import ShareKitAppSupport
import ShareKitClientAssembly
public import ShareKitCore
import ShareKitIntakeInterface
import ShareKitMessagesInterface
import ShareKitTargetStoreInterface
import Synchronization

/// What the desktop's share sheet (`share-sheet`) needs of `share`, without
/// GTK: the account, the recent targets, the search, the check of the items
/// against the server's limits, the login, and the send itself, which runs
/// `share send` in this process (the same inbox, delivery engine, intake and
/// recent targets as the command line), so that the sheet and the command
/// line can never differ in what a share becomes. The texts come from the
/// CLI's string tables, in the person's language.
public final class SheetSession: Sendable {
    /// The process environment the session and its sends use.
    public let environment: [String: String]

    /// - Parameter environment: the process environment (`SHAREKIT_*`, `HOME`, `XDG_*`).
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The context of the current account, or nil when nobody is logged in
    /// (the sheet then offers the login).
    private func context(loadsLibrary: Bool) -> CLIContext? {
        guard
            let context = try? CLIContext(
                environment: environment, server: nil, loadsLibraryEarly: loadsLibrary, requiresAccount: true)
        else { return nil }
        return context
    }

    /// Whether someone is logged in: the sheet shows the targets, else the login form.
    public var hasAccount: Bool { context(loadsLibrary: false) != nil }

    /// The current account's recent targets, newest first (offline, from the shared state).
    public func recentTargets() -> [SheetTarget] {
        guard let context = context(loadsLibrary: false) else { return [] }
        return ((try? context.recents.list().targets) ?? []).map(SheetTarget.init)
    }

    /// The writable targets whose thread title or channel name matches
    /// `query`, from the server: names that begin with it first, then the
    /// others, each group in the server's order.
    /// - Returns: the targets, or the reason the server could not be asked.
    public func search(_ query: String) async -> Result<[SheetTarget], SheetProblem> {
        guard let context = context(loadsLibrary: true) else { return .failure(SheetProblem(t(.sheetNoAccount))) }
        do {
            let found = try await context.targetDirectory.search(query: query, limit: 30)
            return .success(Self.prefixFirst(found.map(\.target), query: query).map(SheetTarget.init))
        } catch {
            return .failure(
                SheetProblem(
                    t(
                        .cannotSearch,
                        ["origin": context.origin, "error": LocalizedText(describing: error).localized])))
        }
    }

    /// `targets` with those whose last name (the thread title, else the
    /// channel name) begins with `query` first; the order within each group is kept.
    static func prefixFirst(_ targets: [ShareTarget], query: String) -> [ShareTarget] {
        let wanted = query.lowercased()
        let leading = targets.filter { target in
            let name = target.displayPath.components(separatedBy: " > ").last ?? target.displayPath
            return name.lowercased().hasPrefix(wanted)
        }
        return leading + targets.filter { !leading.contains($0) }
    }

    /// The preview of the items and whether each can be sent: a file larger
    /// than the server takes, of a type it refuses, or unreadable, is a
    /// problem shown before any byte is sent. The server's limits are those
    /// known from earlier, else asked for now.
    /// - Parameters:
    ///   - items: files and links as `share send` takes them.
    ///   - texts: texts (`--text`).
    public func check(items: [String], texts: [String]) async -> SheetPreview {
        let count = items.count + texts.count
        let more = count > 1 ? t(.previewMore, ["count": count - 1]) : ""
        guard let context = context(loadsLibrary: !items.isEmpty) else {
            return SheetPreview(title: Self.textTitle(texts) + more, detail: "", imagePath: nil, problems: [])
        }
        var problems: [String] = []
        var title = Self.textTitle(texts)
        var detail = ""
        var imagePath: String?
        var limits = items.isEmpty ? nil : context.cachedInstanceLimits()
        if limits == nil, !items.isEmpty { limits = await context.instanceLimits() }
        let sniffer = context.assembly.contentSniffer()
        for (index, argument) in items.enumerated() {
            guard let source = try? context.intake.source(forArgument: argument) else {
                problems.append(t(.previewUnreadable, ["name": argument]))
                continue
            }
            switch source {
            case .file(let path):
                let name = URL(fileURLWithPath: path).lastPathComponent
                var info = stat()
                guard stat(path, &info) == 0 else {
                    problems.append(t(.previewUnreadable, ["name": name]))
                    continue
                }
                let size = Int64(info.st_size)
                let type = (try? sniffer.contentType(ofFileAt: path)) ?? t(.previewUnknownType)
                if index == 0 {
                    title = name
                    detail = "\(type) - \(ProgressBar.formatBytes(size))"
                    if type.hasPrefix("image/") { imagePath = path }
                }
                if let problem = Self.problem(name: name, size: size, type: type, limits: limits) {
                    problems.append(problem)
                }
            case .link(let url):
                if index == 0 { title = t(.previewLink, ["url": url]) }
            case .text(let text):
                if index == 0 { title = t(.previewText, ["text": String(text.prefix(60))]) }
            case .standardInput:
                if index == 0 { title = t(.previewStdin) }
            }
        }
        return SheetPreview(title: title + more, detail: detail, imagePath: imagePath, problems: problems)
    }

    /// Why a file cannot be sent under `limits`, in the person's language, or nil.
    static func problem(name: String, size: Int64, type: String, limits: InstanceLimits?) -> String? {
        guard let limits else { return nil }
        if size > limits.fileMaxUploadBytes {
            return IntakeError.tooLarge(item: name, size: size, limit: limits.fileMaxUploadBytes).localizedText
                .localized
        }
        if let accepted = limits.acceptedContentTypes {
            let major = type.split(separator: "/").first.map(String.init) ?? type
            let taken =
                accepted.contains(type) || accepted.contains(major + "/*")
                || accepted.contains("application/octet-stream")
                // A photo the server does not take is converted into JPEG by `share send`.
                || (major == "image" && accepted.contains("image/jpeg"))
            if !taken {
                return IntakeError.unsupportedType(item: name, contentType: type, accepted: accepted).localizedText
                    .localized
            }
        }
        return nil
    }

    /// The preview's title for a share of texts only.
    private static func textTitle(_ texts: [String]) -> String {
        guard let first = texts.first else { return t(.previewCommentOnly) }
        return t(.previewText, ["text": String(first.prefix(60))])
    }

    /// Sends the share with `share send` in this process: written to the
    /// share inbox first, sent with the CLI's child session, kept for
    /// share-daemon when the time runs out or ``handOff()`` is called.
    /// - Parameters:
    ///   - progress: called with each `progress NAME DONE/TOTAL bytes` line, on any thread.
    /// - Returns: how the share ended, in the person's language.
    public func send(
        target: SheetTarget, comment: String, items: [String], texts: [String],
        progress: @escaping @Sendable (SheetProgress) -> Void
    ) async -> SheetOutcome {
        var arguments = ["--json", "--progress", "lines", "--to", target.reference, "--undo-window", "0"]
        if target.kind == .newPost {
            let title = comment.split(separator: "\n").first.map(String.init) ?? ""
            arguments += [
                "--new-post",
                title.allSatisfy(\.isWhitespace)
                    ? (items.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? t(.newPostDefaultTitle))
                    : String(title.prefix(120)),
            ]
        }
        if !comment.isEmpty { arguments += ["--comment", comment] }
        for text in texts { arguments += ["--text", text] }
        arguments += ["--"] + items
        let out = BufferSink()
        let err = ProgressLineSink(progress)
        let code = await SendCommand.run(arguments, io: ProgramIO(out: out, err: err), environment: environment)
        return SheetOutcome(code: code, json: out.text, errors: err.text, target: target)
    }

    /// Hands the share being sent to share-daemon, as Ctrl-C does for
    /// `share send` (the sheet sends with `--on-cancel keep` and no undo
    /// window): the send returns at once with the share kept.
    public func handOff() {
        kill(getpid(), SIGINT)
    }

    /// Logs in with `share login --password-stdin` as its own process
    /// (`share` next to this program), so that the password goes through a
    /// pipe only.
    /// - Returns: nil when logged in, else the reason in the person's language.
    public func login(server: String, user: String, password: String) async -> String? {
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("share").path
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: FileManager.default.isExecutableFile(atPath: program)
                ? program : "/usr/bin/env")
        let login = ["login", "--server", server, "--user", user, "--password-stdin"]
        process.arguments = process.executableURL?.path == program ? login : ["share"] + login
        process.environment = environment
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return LocalizedText(describing: error).localized
        }
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try? input.fileHandleForWriting.close()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 0 { return nil }
        let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.replacingOccurrences(of: "share login: ", with: "")
    }

    /// A text of the sheet in the person's language.
    public static func text(_ key: CLIText, _ arguments: [String: String] = [:]) -> String {
        CLIText.table.text(key, arguments)
    }
}

/// A target as the sheet lists it.
public struct SheetTarget: Hashable, Sendable {
    /// Thread, channel or new post.
    public let kind: ShareTarget.Kind
    /// The server's id of the thread or channel.
    public let id: String
    /// `server > Space > channel > thread`: the row's text and accessible name.
    public let displayPath: String

    init(_ target: ShareTarget) {
        kind = target.kind
        id = target.id
        displayPath = target.displayPath
    }

    /// The `--to` form (`thread:ID`, `channel:ID`, `new-post:ID`).
    public var reference: String {
        PickerLaunch.reference(of: ShareTarget(kind: kind, id: id, displayPath: displayPath))
    }

    /// The row's text: a forum channel is offered as a new post in it.
    /// Its display path ends in "> new post" (``TargetCandidate/newPostComponent``),
    /// which the sheet's own words say already, in the person's language:
    /// "New post in server > Ideas", not "New post in server > Ideas > new post".
    public var label: String {
        guard kind == .newPost else { return displayPath }
        let component = " > " + TargetCandidate.newPostComponent
        let channel = displayPath.hasSuffix(component) ? String(displayPath.dropLast(component.count)) : displayPath
        return SheetSession.text(.sheetNewPost, ["path": channel])
    }
}

/// A reason the sheet shows, in the person's language.
public struct SheetProblem: Error, Sendable {
    /// The text.
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// The preview of the first item and the problems of all of them.
public struct SheetPreview: Sendable {
    /// The first item's name (or text), with "(+N more)".
    public let title: String
    /// Its type and size; empty for text.
    public let detail: String
    /// The first item's file when it is an image: the sheet shows a thumbnail.
    public let imagePath: String?
    /// Why items cannot be sent (too large, refused type, unreadable): Send stays insensitive.
    public let problems: [String]
}

/// One step of an upload: a file's name and its bytes so far.
public struct SheetProgress: Sendable {
    /// The file (`2/3 name` for one of several).
    public let label: String
    /// Bytes the server has.
    public let done: Int64
    /// The file's size.
    public let total: Int64
    /// The line the sheet shows: bytes, total and rate.
    public func text(rate: Double) -> String {
        SheetSession.text(
            .sheetProgress,
            [
                "name": label, "done": ProgressBar.formatBytes(done), "total": ProgressBar.formatBytes(total),
                "rate": ProgressBar.formatBytes(Int64(rate)),
            ])
    }
}

/// How a send from the sheet ended.
public struct SheetOutcome: Sendable {
    /// What happened, as the sheet words it.
    public enum Kind: Sendable, Equatable {
        /// On the server: the sheet closes.
        case sent
        /// In the share inbox: share-daemon sends it.
        case keptForDaemon
        /// Refused, or failed before anything was kept: the sheet stays open.
        case refused
    }

    /// Sent, kept or refused.
    public let kind: Kind
    /// The sentence the sheet shows.
    public let message: String
    /// `share send`'s exit code.
    public let code: ExitCode

    init(code: ExitCode, json: String, errors: String, target: SheetTarget) {
        self.code = code
        // `share send --json`'s object (ShareKit's own output, read as any JSON).
        let object = JSONValue(strictJSON: Array(json.utf8)) ?? .object([:])
        let status = object["status"]?.stringValue ?? ""
        switch status {
        case "sent":
            kind = .sent
            message = SheetSession.text(.sheetSent, ["path": target.displayPath])
        case "queued",
            "cancelled" where object["kept"] == .bool(true):
            kind = .keptForDaemon
            message = SheetSession.text(.sheetKeptForDaemon, ["path": target.displayPath])
        default:
            kind = .refused
            // `share send`'s own line for a person, without its program prefix.
            let said = errors.split(separator: "\n").filter { !$0.hasPrefix("progress ") }
                .map { $0.replacingOccurrences(of: "share send: ", with: "") }.joined(separator: "\n")
            message = said.isEmpty ? (object["reason"]?.stringValue ?? object["error"]?.stringValue ?? status) : said
        }
    }
}

/// Standard error of the in-process `share send`: its `progress` lines go
/// to the sheet as they come, everything else is kept for the outcome.
final class ProgressLineSink: OutputSink, Sendable {
    private let report: @Sendable (SheetProgress) -> Void
    private let kept = Mutex("")

    init(_ report: @escaping @Sendable (SheetProgress) -> Void) { self.report = report }

    func write(_ text: String) {
        for line in text.split(separator: "\n") {
            if let step = Self.parse(line) { report(step) } else { kept.withLock { $0 += line + "\n" } }
        }
    }

    /// Everything but the progress lines.
    var text: String { kept.withLock { $0 } }

    /// `progress NAME DONE/TOTAL bytes`, or nil for another line.
    static func parse(_ line: Substring) -> SheetProgress? {
        guard line.hasPrefix("progress "), line.hasSuffix(" bytes") else { return nil }
        let body = line.dropFirst("progress ".count).dropLast(" bytes".count)
        guard let space = body.lastIndex(of: " ") else { return nil }
        let numbers = body[body.index(after: space)...].split(separator: "/")
        guard numbers.count == 2, let done = Int64(numbers[0]), let total = Int64(numbers[1]), done >= 0, total >= 0
        else { return nil }
        return SheetProgress(label: String(body[..<space]), done: done, total: total)
    }
}
