public import AppSupport
import ClientAssembly
import Foundation
import ShareCore
import SharedStateInterface

/// The `share-daemon` program: the containing app of ShareKit. It holds the
/// person's session, keeps the child session for the CLI, takes the share
/// inbox over into its outbox and sends each share exactly once.
///
/// This type is the composition root of the daemon.
public enum ShareDaemonProgram {
    /// The help text; the daemon takes options, not subcommands.
    public static let help = """
        share-daemon: the ShareKit daemon (session keeper, inbox takeover, outbox)

        Usage: share-daemon [--once] [--verbose] [--interval SECONDS] [--retry-now] [--lease SECONDS]
               share-daemon --help | -h | help | --version | --manpage

        Runs in the foreground until SIGTERM or SIGINT (systemd: contrib/systemd/share-daemon.service).
        Services: the child session for `share` (createExtensionSession, share_ext),
        the parent session's refresh, the server's limits in the shared state, the
        takeover of the share inbox into the outbox (at start, on inotify, on
        `share send --queue`, and every interval), the outbox (sends each share
        exactly once, retries with backoff), the recent targets (access.changed),
        push: the registration (made again after a new login or when the server
        refuses its preview token) and the notifications of the event feed's pushes
        (a click opens the message's web link with xdg-open).

        Options:
          --once              one pass of every service, then exit
          --verbose           log every step (debug lines), on the terminal too;
                              SHAREKIT_VERBOSE=1 in the environment does the same
          --interval SECONDS  how often the inbox and the outbox are looked at
                              without a notification (default 30)
          --retry-now         at start, make every waiting send due at once, its backoff
                              forgotten (the server is back); with a running daemon:
                              `retry` on its control socket does the same
          --lease SECONDS     how long a send claimed by a daemon that died stays
                              claimed before another pass takes it (default 600;
                              resending is safe, the server answers a replay)
          --help              show this text
          --version           show the version
          --manpage           print the manual page (roff; contrib/man/share-daemon.1)

        Logs go to standard error, never a token: in journald's form
        (`<6>service: message`) when standard error is the journal (JOURNAL_STREAM),
        plain lines (`service: message`, `error: service: message`) elsewhere.
        Started on a terminal (`share-daemon &`), the daemon writes them to
        daemon.log in its state directory instead (0600; moved to daemon.log.1
        when over 16 MiB at start), says so in one line, and says on the terminal
        what stopped it; --verbose (or --once) keeps them on the terminal.
        Each stage of a share (taken over, each attempt and upload, sent, not sent
        yet, refused with the reason) is one line with the share's id, so
        `journalctl --user -u share-daemon | grep ID` tells what became of it.
        The control socket (0600) is $SHAREKIT_RUNTIME_DIR/daemon.sock, else
        <container>/run/daemon.sock for SHAREKIT_CONTAINER_DIR, else
        $XDG_RUNTIME_DIR/sharekit/daemon.sock. The outbox lives in $SHAREKIT_STATE_DIR,
        else <container>/daemon for SHAREKIT_CONTAINER_DIR, else
        $XDG_STATE_HOME/sharekit (~/.local/state/sharekit).

        Exit codes:
          0   stopped by SIGTERM/SIGINT, or --once finished its pass
          1   a person must act: not logged in (share login), a store that cannot be
              opened, another daemon already runs for this container
          2   invalid command line

        """

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
    public static func main(_ arguments: [String], io: ProgramIO = ProgramIO(), environment: [String: String]) async
        -> Int32
    {
        // The daemon speaks English only: its log lines are read by scripts
        // and grep (journalctl), and its help has no German table.
        await Language.withLanguage(.english) { await run(arguments, io: io, environment: environment) }
    }

    /// ``main(_:io:environment:)`` in English.
    private static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> Int32 {
        if arguments == ["help"] {
            io.out.write(help)
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
            io.out.write(help)
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
        guard let origin = (try? assembly.signedInAccount())?.origin else {
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
            socketPath: DaemonControl.socketPath(of: assembly))
        let daemon: Daemon
        do {
            daemon = try Daemon(
                assembly: assembly, origin: origin, stateDirectory: assembly.daemonStateDirectory,
                log: log)
        } catch {
            log.error("daemon", "cannot open the daemon's stores: \(error)")
            if let logFile {
                io.err.write("share-daemon: \(logFile.sink.lastError ?? "stopped"); see \(logFile.path)\n")
            }
            return ExitCode.failure.rawValue
        }
        let runner = DaemonRunner(daemon: daemon, options: options)
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
    /// `--version`.
    static let version = Flag("--version", "show the version")
    /// `--manpage`.
    static let manpage = Flag("--manpage", "print the manual page (roff)")

    /// The program's command line as declared.
    static let declaration = CommandDeclaration(
        "share-daemon", summary: "the ShareKit daemon",
        declared: [once, verbose, interval, retryNow, lease, version, manpage])
}
