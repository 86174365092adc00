import ShareKitAppSupport
import ShareKitCore

/// Every option of `share`, declared once: the parser accepts exactly these
/// (``ShareKitAppSupport/ParsedArguments/init(_:declared:)``), the commands read them
/// through these typed values instead of strings, and the shell completions
/// (`share completions`), the manual page and the CLI reference in README.md
/// are made from the same declarations (``ShareCommands/all``).
enum Options {
    // Shared by several commands.
    static let json = Flag("--json", "print the result as one JSON object on stdout")
    /// `share desktop-entry --install`.
    static let install = Flag(
        "--install", "write the entry into $XDG_DATA_HOME/applications and update its MIME cache")
    static let server = ValueOption("--server", "URL", "the server (default: the one share login chose)")
    static let verbose = Flag("--verbose", "say each step on stderr (SHAREKIT_VERBOSE=1 does the same)")
    static let progress = ValueOption(
        "--progress", "MODE", "auto, bar, lines or off: how upload progress is shown",
        completion: .choices(["auto", "bar", "lines", "off"]))
    static let noProgress = Flag("--no-progress", "the same as --progress off")
    static let onCancel = ValueOption(
        "--on-cancel", "keep|remove|discard",
        "on Ctrl-C: keep the share for share-daemon (default) or remove it (discard: the same)",
        completion: .choices(["keep", "remove", "discard"]))
    static let undoWindow = ValueOption(
        "--undo-window", "SECONDS",
        "after Ctrl-C, how long share-daemon waits before it may send the share (default 30, 0 for none)")

    // share send
    static let text = RepeatedOption("--text", "T", "text to put into the message (repeatable)")
    static let stdin = Flag("--stdin", "read standard input as an item (also: -)")
    static let to = ValueOption(
        "--to", "TARGET",
        "thread:ID, channel:ID, new-post:CHANNEL_ID or a display path (on Matrix: #alias:server, !roomid:server "
            + "or the room's name); without it, the picker",
        completion: .candidates(CompleteCommand.Kind.targets.rawValue))
    static let comment = ValueOption("--comment", "C", "the message's comment (first in the text)")
    static let newPost = ValueOption("--new-post", "TITLE", "start a new post with this title in a forum channel")
    static let queue = Flag("--queue", "keep the share for share-daemon and return at once")
    static let loadTimeout = ValueOption("--load-timeout", "SECONDS", "the deadline of each load (default 30)")
    static let desktop = Flag(
        "--desktop", "launched from the desktop entry; every argument after it is a file or URL, never an option")
    static let keepMetadata = Flag(
        "--keep-metadata",
        "a photo keeps its location (GPS), XMP and the tags naming its owner or camera; by default they are removed")

    // share login
    static let loginServer = ValueOption("--server", "URL", "the server, https://host[:port]")
    static let user = ValueOption("--user", "NAME", "the username")
    static let passwordStdin = Flag("--password-stdin", "read the password from standard input's first line")
    static let allowInsecureHTTP = Flag("--allow-insecure-http", "allow http:// to another machine (test networks)")

    // share logout
    static let allAccounts = Flag("--all", "log out of every account on this device")

    // share targets
    static let search = ValueOption("--search", "QUERY", "search the server's writable targets")
    static let limit = ValueOption("--limit", "N", "at most N targets (default 20)")

    // share notify
    static let payload = ValueOption(
        "--payload", "FILE", "the push payload's JSON, or - for standard input", completion: .files)
    static let print = Flag("--print", "print the title and the body instead of showing them")
    static let noWait = Flag(
        "--no-wait", "show the notification without its default action and return at once")

    // share debug
    static let method = ValueOption("--method", "M", "the request's method")
    static let url = ValueOption("--url", "U", "the request's URL")
    static let accessTokenFile = ValueOption(
        "--access-token-file", "F", "bind the proof to the access token in F (ath)", completion: .files)
    static let nonce = ValueOption("--nonce", "N", "the server's DPoP nonce")
}

/// The commands of `share` as declared: what `share completions`, the manual
/// page and the CLI reference list, and what each command's parser accepts.
///
/// The completions and the reference are files a person installs or the
/// repository ships, so they are English: a command's summary is its text
/// of the string table in English (`share --help` shows it in the person's
/// language), and the one-line summaries of options and of `share debug`'s
/// subcommands are written here in English only.
enum ShareCommands {
    static let send = CommandDeclaration(
        "send", summary: CLIText.table.text(.summarySend, in: .english),
        declared: [
            Options.text, Options.stdin, Options.to, Options.comment, Options.newPost, Options.queue, Options.json,
            Options.server, Options.onCancel, Options.undoWindow, Options.loadTimeout, Options.keepMetadata,
            Options.desktop,
            Options.progress, Options.noProgress, Options.verbose,
        ], arguments: "[FILE|URL ...]", argumentCompletion: .files)

    /// What a shell completes for the ID of `share inbox show|retry|drop`.
    static let inboxIDs = CompletionHint.candidates(CompleteCommand.Kind.inboxIDs.rawValue)

    static let inboxList = CommandDeclaration(
        "list", summary: "every share that waits, is being sent or was refused, with where it is",
        declared: [Options.json])
    static let inboxShow = CommandDeclaration(
        "show", summary: "one share, by its id, its short id or a unique prefix or suffix", declared: [Options.json],
        arguments: "ID", argumentCompletion: inboxIDs)
    static let inboxRetry = CommandDeclaration(
        "retry", summary: "send a share of the inbox now; make one of the daemon's outbox due again",
        declared: [
            Options.json, Options.progress, Options.noProgress, Options.onCancel, Options.undoWindow, Options.server,
            Options.verbose,
        ], arguments: "ID", argumentCompletion: inboxIDs)
    static let inboxDrop = CommandDeclaration(
        "drop", summary: "delete a share that waits or was refused", declared: [Options.json],
        arguments: "ID", argumentCompletion: inboxIDs)
    static let inboxClean = CommandDeclaration(
        "clean", summary: "delete now what sent, dropped or interrupted shares left behind",
        declared: [Options.json])
    static let inbox = CommandDeclaration(
        "inbox", summary: CLIText.table.text(.summaryInbox, in: .english),
        subcommands: [inboxList, inboxShow, inboxRetry, inboxDrop, inboxClean])

    static let login = CommandDeclaration(
        "login", summary: CLIText.table.text(.summaryLogin, in: .english),
        declared: [
            Options.loginServer, Options.user, Options.passwordStdin, Options.allowInsecureHTTP, Options.json,
        ])
    static let logout = CommandDeclaration(
        "logout", summary: CLIText.table.text(.summaryLogout, in: .english),
        declared: [Options.server, Options.allAccounts, Options.json])
    static let accountsList = CommandDeclaration(
        "list", summary: "every account: server, user, the current one, its session (also: share accounts)",
        declared: [Options.json])
    static let accountsUse = CommandDeclaration(
        "use", summary: "make the account at SERVER the current one", declared: [Options.json],
        arguments: "SERVER")
    static let accounts = CommandDeclaration(
        "accounts", summary: CLIText.table.text(.summaryAccounts, in: .english),
        subcommands: [accountsList, accountsUse])
    static let status = CommandDeclaration(
        "status", summary: CLIText.table.text(.summaryStatus, in: .english), declared: [Options.json])
    static let targets = CommandDeclaration(
        "targets", summary: CLIText.table.text(.summaryTargets, in: .english),
        declared: [Options.search, Options.limit, Options.json, Options.server])
    static let desktopEntry = CommandDeclaration(
        "desktop-entry", summary: CLIText.table.text(.summaryDesktopEntry, in: .english),
        declared: [Options.install, Options.json])
    static let notify = CommandDeclaration(
        "notify", summary: CLIText.table.text(.summaryNotify, in: .english),
        declared: [Options.payload, Options.print, Options.json, Options.noWait])

    static let debugProof = CommandDeclaration(
        "dpop-proof", summary: "print a DPoP proof signed with the device key",
        declared: [Options.method, Options.url, Options.accessTokenFile, Options.nonce])
    static let debugJWK = CommandDeclaration("jwk", summary: "print the device key's public JWK and thumbprint")
    static let debugGet = CommandDeclaration(
        "get", summary: "GET paths with the child session, one JSON answer a line",
        declared: [Options.server], arguments: "PATH [PATH ...]")
    static let debug = CommandDeclaration(
        "debug", summary: CLIText.table.text(.summaryDebug, in: .english),
        subcommands: [debugProof, debugJWK, debugGet])

    static let manpage = CommandDeclaration(
        "manpage", summary: CLIText.table.text(.summaryManpage, in: .english))
    static let completions = CommandDeclaration(
        "completions", summary: CLIText.table.text(.summaryCompletions, in: .english), arguments: "bash|zsh|fish",
        argumentCompletion: .choices(ShellCompletions.shells))

    static let reference = CommandDeclaration(
        "reference", summary: CLIText.table.text(.summaryReference, in: .english))

    /// Every command in help order.
    static let all = [
        send, inbox, login, logout, accounts, status, targets, desktopEntry, notify, debug, manpage, completions,
        reference,
    ]

    /// A subcommand's declaration by the command's and its own name.
    static func declaration(_ command: String, _ sub: String? = nil) -> CommandDeclaration? {
        guard let found = all.first(where: { $0.name == command }) else { return nil }
        guard let sub else { return found }
        return found.subcommands.first { $0.name == sub }
    }
}
