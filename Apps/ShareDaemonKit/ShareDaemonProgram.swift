import Foundation
public import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// The `share-daemon` program: the containing app of ShareKit. It holds the
/// person's session, keeps the child session for the CLI, takes the share
/// inbox over into its outbox and sends each share exactly once.
///
/// This type is the composition root of the daemon.
public enum ShareDaemonProgram {
    /// The help text in English (the manual page); the daemon takes
    /// options, not subcommands. `--help` shows it in the person's language.
    public static var help: String { DaemonText.table.text(.help, in: .english) }

    /// The manual page (`share-daemon --manpage`; contrib/man/share-daemon.1).
    public static var manualPage: ManualPage {
        ManualPage(
            program: "share-daemon", summary: "the ShareKit daemon (session keeper, inbox takeover, outbox)",
            sections: [("DESCRIPTION", help)])
    }

    /// Runs the daemon with `arguments` (without the program name).
    /// - Returns: the process exit code.
    /// - Parameters:
    ///   - arguments: the command line without the program name.
    ///   - io: standard output and error.
    ///   - environment: the process environment (keychain, container, runtime and state directories).
    ///   - stopDeadline: armed when the daemon starts to stop, so that a hung
    ///     service cannot keep the process alive (``ProgramRun``).
    public static func main(
        _ arguments: [String], io: ProgramIO = ProgramIO(), environment: [String: String],
        stopDeadline: StopDeadline
    ) async -> Int32 {
        // The daemon's log is English: its lines are read by scripts and grep
        // (journalctl). What a person reads (--help, desktop notifications)
        // asks for the environment's language explicitly (DaemonText).
        await Language.withLanguage(.english) {
            await run(arguments, io: io, environment: environment, stopDeadline: stopDeadline)
        }
    }

    /// ``main(_:io:environment:stopDeadline:)`` in English.
    private static func run(
        _ arguments: [String], io: ProgramIO, environment: [String: String], stopDeadline: StopDeadline
    ) async -> Int32 {
        if arguments == ["help"] {
            io.out.write(DaemonText.table.text(.help, in: .process))
            return ExitCode.success.rawValue
        }
        if arguments == ["--manpage"] {
            io.out.write(manualPage.roff)
            return ExitCode.success.rawValue
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: DaemonOptions.declaration)
        } catch {
            io.err.write("share-daemon: \(error); run 'share-daemon --help'\n")
            return ExitCode.usage.rawValue
        }
        if parsed.asksForHelp {
            // For a person: in the language the environment chose (the log stays English).
            io.out.write(DaemonText.table.text(.help, in: .process))
            return ExitCode.success.rawValue
        }
        if parsed.has(DaemonOptions.version) {
            io.out.write("share-daemon \(ShareKitVersion.current)\n")
            return ExitCode.success.rawValue
        }
        guard parsed.positionals.isEmpty else {
            io.err.write("share-daemon: unexpected argument '\(parsed.positionals[0])'; run 'share-daemon --help'\n")
            return ExitCode.usage.rawValue
        }
        guard let seconds = Double(parsed.value(DaemonOptions.interval) ?? "30"), seconds >= 0.05, seconds <= 86_400
        else {
            io.err.write("share-daemon: --interval must be a number of seconds (0.05 to 86400)\n")
            return ExitCode.usage.rawValue
        }
        guard let lease = Double(parsed.value(DaemonOptions.lease) ?? "600"), lease >= 0, lease <= 86_400 else {
            io.err.write("share-daemon: --lease must be a number of seconds (0 to 86400)\n")
            return ExitCode.usage.rawValue
        }
        guard let notifications = Int(parsed.value(DaemonOptions.maxNotifications) ?? "16"),
            (1...256).contains(notifications)
        else {
            io.err.write("share-daemon: --max-notifications must be a whole number from 1 to 256\n")
            return ExitCode.usage.rawValue
        }
        guard let controlTimeout = Double(parsed.value(DaemonOptions.controlTimeout) ?? "2"), controlTimeout >= 0.05,
            controlTimeout <= 60
        else {
            io.err.write("share-daemon: --control-timeout must be a number of seconds (0.05 to 60)\n")
            return ExitCode.usage.rawValue
        }
        var log = DaemonLog(
            sink: io.err, verbose: parsed.verbose(environment: environment),
            journal: DaemonLog.stderrIsJournal(environment))
        let assembly: ClientAssembly
        do {
            assembly = try ClientAssembly(environment: environment)
        } catch {
            log.error("daemon", "\(error)")
            return ExitCode.failure.rawValue
        }
        guard let account = try? assembly.accounts.current() else {
            log.error("daemon", "not logged in: run `share login --server URL --user NAME` first")
            return ExitCode.failure.rawValue
        }
        // Started on a terminal (`share-daemon &`), the daemon's lines go
        // to a file, not over the shell the person goes on typing in; what
        // ends it is said on the terminal too. One pass (`--once`) is a
        // command a person watches: it stays on the terminal.
        var logFile: (path: String, sink: ErrorRememberingSink)?
        if !parsed.has(DaemonOptions.once),
            LogFile.wanted(standardError: io.err, verbose: parsed.verbose(environment: environment))
        {
            let path = assembly.daemonStateDirectory + "/daemon.log"
            do {
                let sink = ErrorRememberingSink(try LogFile.open(path))
                io.err.write("share-daemon: logging to \(path) (--verbose logs here)\n")
                logFile = (path, sink)
                log = DaemonLog(sink: sink, verbose: log.verbose, journal: false)
            } catch {
                io.err.write("share-daemon: \(error); logging here\n")
            }
        }
        let options = DaemonOptions(
            once: parsed.has(DaemonOptions.once), verbose: parsed.verbose(environment: environment),
            retryNow: parsed.has(DaemonOptions.retryNow),
            interval: .milliseconds(Int64(seconds * 1000)), lease: .milliseconds(Int64(lease * 1000)),
            socketPath: assembly.daemonSocketPath, maxNotifications: notifications,
            controlTimeout: .milliseconds(Int64(controlTimeout * 1000)))
        let daemon: Daemon
        do {
            daemon = try Daemon(
                assembly: assembly, account: account, stateDirectory: assembly.daemonStateDirectory,
                log: log, maxNotifications: notifications, notifications: !parsed.has(DaemonOptions.noNotifications))
        } catch {
            log.error("daemon", "cannot open the daemon's stores: \(error)")
            if let logFile {
                io.err.write("share-daemon: \(logFile.sink.lastError ?? "stopped"); see \(logFile.path)\n")
            }
            return ExitCode.failure.rawValue
        }
        let runner = DaemonRunner(daemon: daemon, options: options, stopDeadline: stopDeadline)
        let code = options.once ? await runner.runOnce() : await runner.runForever()
        if code != .success, let logFile {
            io.err.write("share-daemon: \(logFile.sink.lastError ?? "stopped"); see \(logFile.path)\n")
        }
        return code.rawValue
    }
}

extension DaemonOptions {
    /// `share-daemon`'s options, declared once: its parser accepts exactly these.
    static let once = Flag("--once", "one pass of every service, then exit")
    /// `--verbose`.
    static let verbose = Flag(
        "--verbose", "log every step, on the terminal too (SHAREKIT_VERBOSE=1 does the same)")
    /// `--interval SECONDS`.
    static let interval = ValueOption("--interval", "SECONDS", "how often the inbox and the outbox are looked at")
    /// `--retry-now`.
    static let retryNow = Flag("--retry-now", "at start, make every waiting send due at once")
    /// `--lease SECONDS`.
    static let lease = ValueOption("--lease", "SECONDS", "how long a dead daemon's claim lasts (default 600)")
    /// `--max-notifications N`.
    static let maxNotifications = ValueOption(
        "--max-notifications", "N", "the most notification programs alive at once (default 16)")
    /// `--no-notifications`.
    static let noNotifications = Flag(
        "--no-notifications", "show no notification for pushes (messages of others); they are shown by default")
    /// `--control-timeout SECONDS`.
    static let controlTimeout = ValueOption(
        "--control-timeout", "SECONDS", "a control socket client's time for its request and answer (default 2)")
    /// `--version`.
    static let version = Flag("--version", "show the version")
    /// `--manpage`.
    static let manpage = Flag("--manpage", "print the manual page (roff)")

    /// The program's command line as declared.
    static let declaration = CommandDeclaration(
        "share-daemon", summary: "the ShareKit daemon",
        declared: [
            once, verbose, interval, retryNow, lease, maxNotifications, noNotifications, controlTimeout, version,
            manpage,
        ])
}
