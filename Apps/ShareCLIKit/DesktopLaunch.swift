import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitPushPreviewInterface
import ShareKitTargetStoreInterface
import Synchronization

/// `share send --desktop URLS...`: how the desktop entry launches ShareKit
/// from a file manager's "Open with" or a link dropped on its launcher (no
/// terminal, nobody reading stderr). What the desktop hands over becomes
/// items as ``DesktopHandover`` says: files, links, and the links of a
/// `*.uri-list` file; everything after `--desktop` is such an item, never
/// an option.
///
/// A share never goes anywhere the person did not choose. On a terminal it
/// is the ordinary `share send` with the picker. Without one, on a display,
/// it opens the share sheet (`share-sheet`, when it is on `$PATH`), which
/// asks, sends and says how it went by itself; without the sheet it opens itself
/// in a terminal emulator when one is configured (`$TERMINAL`, else
/// `x-terminal-emulator`) and there is a display; else it asks with a
/// graphical chooser that is there (`zenity`, else `kdialog`) among the
/// recent targets; else it keeps nothing and a notification says how to
/// share from a terminal. The outcome becomes a desktop notification, so a
/// share that worked says so and where, and one that failed says why.
enum DesktopLaunch {
    /// What the notification says when nothing could ask the person.
    static var howToShare: String { t(.desktopHowToShare) }

    /// Runs a desktop launch.
    /// - Parameters:
    ///   - arguments: the command line split at `--desktop`: the options
    ///     before it (`--to`, `--queue`, ...), the handed-over items after it.
    ///   - parsed: the options before `--desktop`, parsed.
    ///   - io: where output goes (captured for the notification).
    ///   - environment: the process environment.
    static func run(
        _ arguments: DesktopHandover.Arguments, parsed: ParsedArguments, io: ProgramIO, environment: [String: String]
    ) async -> ExitCode {
        let notifier = DesktopNotifier(environment: environment, fallback: io.err)
        let items: [String]
        do {
            items = try DesktopHandover.expand(arguments.items)
        } catch {
            // A list that names a local file: nothing of it is read, nothing is sent.
            io.err.write("share send: \(error.localizedText.localized)\n")
            notifier.notify(.failure, summary: t(.notifyNotShared), body: error.localizedText.localized)
            return .rejected
        }
        if PickerLaunch.hasTerminal || parsed.value(Options.to) != nil {
            return await sendAndNotify(
                arguments.options, items: items, io: io, queued: parsed.has(Options.queue),
                environment: environment, notifier: notifier)
        }
        if let sheet = shareSheet(environment) {
            // The sheet is the desktop's own way to ask: it chooses, sends and says how it went.
            // Opened from the menu, with nothing handed over, it shares the clipboard's text.
            let command = [sheet] + (items.isEmpty ? ["--clipboard"] : ["--"] + items.map(DesktopHandover.positional))
            // It outlives this process: it must not hold the standard output and error that the desktop (or
            // a script) waits to see closed.
            if ChildProgram.spawn(command, environment: environment, outputToNull: true) != nil { return .success }
        }
        if let terminal = terminalEmulator(environment), let me = executablePath() {
            // The new terminal's share gets the same split: the items stay after `--desktop`.
            let command = [terminal, "-e", me, "send"] + arguments.options + ["--desktop"] + arguments.items
            if spawnDetached(command, environment: environment) { return .success }
        }
        let recents: [ShareTarget]
        do {
            let context = try CLIContext(environment: environment, server: nil, loadsLibraryEarly: false)
            recents = try context.recents.list().targets
        } catch {
            notifier.notify(.failure, summary: t(.notifyNotShared), body: LocalizedText(describing: error).localized)
            return .failure
        }
        guard let chooser = GraphicalChooser.find(environment), !recents.isEmpty else {
            notifier.notify(.failure, summary: t(.notifyNotShared), body: howToShare)
            return .failure
        }
        guard let chosen = chooser.choose(among: recents, items: items.count, environment: environment) else {
            notifier.notify(.success, summary: t(.notifyCancelled), body: t(.notifyNothingShared))
            return .cancelled
        }
        return await sendAndNotify(
            arguments.options + ["--to", PickerLaunch.reference(of: chosen)], items: items, io: io,
            queued: parsed.has(Options.queue), environment: environment, notifier: notifier)
    }

    /// Runs `share send` with `options` and the items after `--` (so none
    /// of them is read as an option), then says how it ended in a notification.
    private static func sendAndNotify(
        _ options: [String], items: [String], io: ProgramIO, queued: Bool, environment: [String: String],
        notifier: DesktopNotifier
    ) async -> ExitCode {
        let out = CapturingSink(io.out)
        let err = CapturingSink(io.err)
        let code = await SendCommand.run(
            options + ["--"] + items.map(DesktopHandover.positional), io: ProgramIO(out: out, err: err),
            environment: environment)
        let said = Self.personalised(out.lines.last ?? "")
        // One line: a notification shows text, and its body is escaped as a whole.
        let why = err.lines.map { $0.hasPrefix("share send: ") ? String($0.dropFirst(12)) : $0 }
            .joined(separator: " ")
        switch code {
        case .success:
            notifier.notify(.success, summary: queued ? t(.notifyQueued) : t(.notifyShared), body: said)
        case .queued: notifier.notify(.success, summary: t(.notifyNotSentYet), body: said)
        case .cancelled: notifier.notify(.success, summary: t(.notifyCancelled), body: t(.notifyNothingShared))
        default: notifier.notify(.failure, summary: t(.notifyNotShared), body: why.isEmpty ? said : why)
        }
        return code
    }

    /// The result line of `share send` for a notification: the contract
    /// line `sent to <display path>: message <id>` (English for scripts)
    /// in the person's language; any other line as it is.
    static func personalised(_ line: String) -> String {
        let lead = "sent to "
        guard line.hasPrefix(lead), let separator = line.range(of: ": message ", options: .backwards) else {
            return line
        }
        let path = String(line[line.index(line.startIndex, offsetBy: lead.count)..<separator.lowerBound])
        let message = String(line[separator.upperBound...])
        let again = " (it had already been delivered)"
        guard message.hasSuffix(again) else { return t(.notifySentTo, ["path": path, "message": message]) }
        return t(.notifySentToAgain, ["path": path, "message": String(message.dropLast(again.count))])
    }

    /// `share-sheet` on `$PATH` (where `make install` puts it next to
    /// `share`), when there is a display to show it on.
    static func shareSheet(_ environment: [String: String]) -> String? {
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display else { return nil }
        return findProgram("share-sheet", environment: environment)
    }

    /// The terminal emulator to open the picker in, when there is a display to show it on.
    static func terminalEmulator(_ environment: [String: String]) -> String? {
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display else { return nil }
        if let configured = environment["TERMINAL"], !configured.isEmpty {
            return findProgram(configured, environment: environment)
        }
        return findProgram("x-terminal-emulator", environment: environment)
    }

    /// The path of `name` (a path, or a program on `$PATH`), when it can be run.
    static func findProgram(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
            return "\(directory)/\(name)"
        }
        return nil
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts `command` and does not wait for it (the terminal outlives this process).
    private static func spawnDetached(_ command: [String], environment: [String: String]) -> Bool {
        ChildProgram.spawn(command, environment: environment) != nil
    }
}

/// A graphical list to choose a target from, for a desktop launch without a
/// terminal: `zenity`, else `kdialog`, when there is a display to show it on.
struct GraphicalChooser: Sendable {
    /// The chooser's program.
    let program: String
    /// Whether it is kdialog (else zenity, whose arguments differ).
    let isKDialog: Bool

    /// The chooser that is there, or nil (no display, neither program on `$PATH`).
    static func find(_ environment: [String: String]) -> GraphicalChooser? {
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display else { return nil }
        if let zenity = DesktopLaunch.findProgram("zenity", environment: environment) {
            return GraphicalChooser(program: zenity, isKDialog: false)
        }
        if let kdialog = DesktopLaunch.findProgram("kdialog", environment: environment) {
            return GraphicalChooser(program: kdialog, isKDialog: true)
        }
        return nil
    }

    /// Asks the person where the items go; nil when they cancelled or chose nothing known.
    /// - Parameters:
    ///   - targets: the recent targets to choose among.
    ///   - items: how many files and links are shared (for the question).
    ///   - environment: the chooser's environment (its display).
    func choose(among targets: [ShareTarget], items: Int, environment: [String: String]) -> ShareTarget? {
        let question = t(.chooserQuestion, ["items": items])
        // Display paths are other users' words: shown as plain text, never as markup or escapes.
        let rows = targets.map { (PickerLaunch.reference(of: $0), TerminalText.neutralised($0.displayPath)) }
        let command: [String]
        if isKDialog {
            command = [program, "--title", "ShareKit", "--menu", question] + rows.flatMap { [$0.0, $0.1] }
        } else {
            command =
                [
                    program, "--list", "--title=ShareKit", "--text=\(question)", "--column=\(t(.chooserReference))",
                    "--column=\(t(.chooserTarget))", "--hide-column=1", "--print-column=1", "--no-markup",
                ] + rows.flatMap { [$0.0, $0.1] }
        }
        guard let answer = ChildProgram.output(command, environment: environment) else { return nil }
        let chosen = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        return targets.first { PickerLaunch.reference(of: $0) == chosen }
    }
}

/// Desktop notifications of a desktop launch's outcome, through the same
/// presenter as a push's (`notify-send`, or the program named by
/// `SHAREKIT_NOTIFY_COMMAND`): the body may quote other users (a thread's
/// title in "sent to ...") and the server (a refusal's reason), and the
/// presenter shows it as text, never as markup, and never as an option.
/// When nothing can show it, the message goes to standard error.
struct DesktopNotifier: Sendable {
    enum Kind { case success, failure }

    let presenter: any NotificationPresenting
    let fallback: any OutputSink

    init(environment: [String: String], fallback: any OutputSink) {
        presenter = ClientAssembly.notificationPresenter(environment: environment)
        self.fallback = fallback
    }

    /// Shows the notification, and waits for the notifier to finish.
    func notify(_ kind: Kind, summary: String, body: String) {
        let shown = RenderedNotification(
            title: summary, body: body, threadID: nil, badge: nil, sound: nil, kind: nil, nid: nil,
            outcome: .unchanged, urgency: kind == .success ? .normal : .critical)
        do {
            try presenter.deliver(shown)
        } catch {
            fallback.write("\(TerminalText.neutralised(summary)): \(TerminalText.neutralised(body))\n")
        }
    }
}

/// Small `posix_spawn` wrapper for the terminal emulator and the graphical chooser.
enum ChildProgram {
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// looked up by name since the Glibc module leaves it out; nil (nothing
    /// closed) on a C library without it.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        {
            guard
                let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// `POSIX_SPAWN_SETSID` of glibc's `<spawn.h>` (a GNU extension Swift's
    /// Glibc module leaves out): the child calls `setsid()` before it runs.
    private static let spawnSetSID: Int16 = 0x80

    /// Starts `command` with `environment`, its standard input from /dev/null
    /// and no descriptor of this process beyond the standard three (libcurl's
    /// sockets, the inbox's folders: a child that outlives the command must
    /// not keep a connection or a lock open).
    /// - Parameters:
    ///   - outputToNull: its standard output and error to /dev/null too.
    ///   - newSession: in a session of its own, so that a terminal's
    ///     hang-up or Ctrl-C for this process does not reach it.
    /// - Returns: the process id, or nil when it could not start.
    static func spawn(
        _ command: [String], environment: [String: String], outputToNull: Bool = false, newSession: Bool = false
    ) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if outputToNull {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        _ = closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if newSession { posix_spawnattr_setflags(&attributes, spawnSetSID) }
        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables)
        return status == 0 ? pid : nil
    }

    /// Runs `command` to the end and returns what it wrote on standard
    /// output when it exited 0 (a chooser's answer); nil otherwise.
    static func output(_ command: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Passes output on and keeps a copy, to put the outcome into a notification.
final class CapturingSink: OutputSink, @unchecked Sendable {
    private let inner: any OutputSink
    private let text = Mutex("")

    init(_ inner: any OutputSink) { self.inner = inner }

    var isTerminal: Bool { inner.isTerminal }

    func write(_ text: String) {
        inner.write(text)
        self.text.withLock { $0 += text }
    }

    /// What was written, line by line, without empty lines.
    var lines: [String] { text.withLock { $0 }.split(separator: "\n").map(String.init) }
}
