extension CLIText {
    /// The English texts: the language of the sources and of every contract.
    static let english: [CLIText: String] = [
        .sendHelp: """
        Usage: share send [FILE|URL ...] [--text T] [--stdin] [--to TARGET] [--comment C]
                          [--new-post TITLE] [--queue] [--json] [--server URL]
                          [--on-cancel keep|remove|discard] [--undo-window SECONDS]
                          [--load-timeout SECONDS] [--keep-metadata] [--desktop]
                          [--progress auto|bar|lines|off] [--no-progress] [--verbose]

        Shares files, links and text into a thread or channel as one message.

        Items (ranked: image, pdf, file, link, text):
          FILE            a path or a file:// URL: uploaded as an attachment. Several
                          files make one message (at most message_max_attachments).
          URL             any other URL (https://...): put into the message text.
          --text T        text to put into the message (repeatable).
          --stdin, -      read standard input: text goes into the message, anything
                          else is attached as a file.
        Target:
          --to TARGET     thread:ID, channel:ID, new-post:CHANNEL_ID, or a display path
                          such as "server > Gateway > resume the gateway". Without
                          --to, a full-screen picker opens on a terminal (recent
                          targets, search); without a terminal, --to is required.
          --new-post TITLE  start a new post with this title in the forum channel TARGET.
        Options:
          --comment C     the message's comment (first in the text).
          --queue         write the share into the share inbox and return at once;
                          share-daemon sends it (exit 0 once it is safely kept).
          --json          print the result as one JSON object on stdout.
          --server URL    the server (default: the one `share login` chose).
          --on-cancel M   on Ctrl-C: keep (default) leaves the share in the inbox for
                          the daemon, after the undo window; remove (or discard)
                          deletes it at once (for scripts). Once the message itself was
                          sent to the server, Ctrl-C waits up to 5 s for its answer
                          (Ctrl-C again stops waiting): sent is reported as sent; with
                          no answer the share is kept for share-daemon whatever this
                          says, as the message may already be on the server.
          --undo-window S after Ctrl-C, a kept share waits S seconds (default 30, 0 for
                          none, at most 3600) before share-daemon may send it: the
                          message says so, and `share inbox drop ID` takes it back
                          meanwhile. The wait is kept in the share inbox entry, so a
                          running daemon honours it too.
          --load-timeout S  the deadline of each load (a file, stdin, a FIFO); default 30.
          --keep-metadata a photo keeps its location (GPS), XMP and the tags that name
                          its owner or camera (below); by default they are removed.
          --progress M    auto (default): a bar with bytes acknowledged, rate and ETA on
                          a terminal, nothing on a pipe; bar: always the bar; lines: a
                          plain `progress NAME DONE/TOTAL bytes` line each second (logs);
                          off: nothing.
          --no-progress   the same as --progress off.
          --desktop       launched from the desktop entry: every argument after it is a
                          file or URL the desktop handed over, never an option (put
                          --to and the other options before it); a *.uri-list file is
                          the links it lists (one that names a local file is refused).
                          Open the picker in a terminal emulator, else ask in a
                          graphical chooser (zenity, kdialog), else share nothing and
                          say how; the outcome is a desktop notification
                          (docs/picker.md).
          --verbose       say each stage on stderr, one line each with the share's id
                          (written to the share inbox, each upload, the message, sent,
                          kept or refused with the reason); SHAREKIT_VERBOSE=1 in the
                          environment does the same.

        Before anything is sent the share is kept in the share inbox of the shared
        container; it is removed when the server has it or refused it for good.
        The content type of each file is told from its bytes (libmagic) and its name
        (the shared MIME database); a type the server does not accept is refused
        before any byte is sent. A file where keys, passwords or tokens are kept
        (~/.ssh, ~/.gnupg, ~/.aws, ~/.netrc, ~/.config/gh, browser profiles, /proc,
        ShareKit's own keychain, container and state), also through a symbolic link
        or as standard input, is never read: refused with exit 4 (code
        protected_file). A picture (HEIC/HEIF, AVIF, WebP, TIFF, PNG, GIF) for a
        server that does not accept its type but accepts image/jpeg is sent as
        <name>.jpg, converted into the share inbox within the load deadline: its
        orientation applied, transparency laid on white. One beyond 64 megapixels,
        damaged or animated is refused. Every photo, converted or sent as it is (a
        JPEG or PNG is not re-encoded), loses its location (GPS), XMP, IPTC, comments
        and the tags naming its owner or serial numbers unless --keep-metadata; the
        original file is not changed.

        Output: `sent to <display path>: message <id>` on success; with --json an
        object {"status": "sent"|"queued"|"rejected"|"cancelled"|"error", ...}.

        Texts for a person follow LC_ALL, LC_MESSAGES, LANG and LANGUAGE (English and
        German); --json, and the `sent to` line when standard output is not a terminal,
        are English in every language, for scripts.

        A request that moves no byte for 30 s (15 s for a session request) counts as
        failed and the share is kept; SHAREKIT_HTTP_STALL_SECONDS=N gives up after N.

        Exit codes:
          0   sent (or, with --queue, kept for the daemon)
          1   failure: an item cannot be read or loaded in time, no server, an I/O error
          2   invalid command line
          3   not sent now (no network, the server is busy or failing, no session):
              kept in the share inbox; share-daemon will send it
          4   refused (no write permission, too large, type not accepted, unknown
              target); nothing was kept
          130 interrupted (Ctrl-C); the message says whether the share was kept, and
              whether the message may already be on the server


        """,
        .runHelp: "{message}; run '{command} --help'",
        .newPostNeedsTitle: "--new-post needs a title",
        .onCancelValues: "--on-cancel must be keep, remove or discard",
        .loadTimeoutRange: "--load-timeout must be a number of seconds between 0 and 86400",
        .nothingToShare: "nothing to share: give a file, a link, --text, --stdin or --comment",
        .notSent: "not sent: {reason}",
        .daemonWillSend: "share-daemon will send it to {path}",
        .daemonWillSendWhenStarted: "{advice}; it will send it to {path}",
        .daemonNotRunning:
            "share-daemon is not running: start it with `share-daemon &` or `systemctl --user start share-daemon`",
        .notSentNow: "not sent now: {reason}",
        .keptInInbox: "kept in the share inbox as {id}; {who}",
        .queued: "queued {id}: {who}",
        .interruptedKept: "interrupted; the share stays in the share inbox as {id} for share-daemon",
        .interruptedRemoved: "interrupted; the share was removed",
        .tooManyAttachments:
            "a message can have at most {limit} attachments (message_max_attachments); this one has {count}",
        .waitingFor: "waiting for {host} ...",
        .noServer: "no server: run `share login --server URL --user NAME` first, or give --server URL",
        .serverVariableForm: "SHAREKIT_SERVER must be http(s)://host[:port], not \"{server}\"",
        .notLoggedInAt: "not logged in at {origin}: share login --server {origin}",
        .retryNotLoggedIn: """
        {id} was not sent: not logged in at {origin}, so neither share nor share-daemon can send it; it stays \
        as it is: share login --server {origin}, then share inbox retry {id}; or share inbox drop {id}
        """,
        .newPostNeedsForum: "--new-post needs a forum channel (new-post:ID or channel:ID), not {path}",
        .cannotLookUp:
            "cannot look up \"{text}\" now ({reason}); use a reference such as thread:ID, which works offline",
        .notAKind: """
        '{text}' is not a target: '{kind}' is not a kind of target (use thread:ID, channel:ID, \
        new-post:CHANNEL_ID, or a display path such as "server > Space > channel"){hint}
        """,
        .didYouMeanTarget: "; did you mean '{reference}'?",
        .quarantinedNotSent: "the share could not be sent and was quarantined: {reason}",
        .noTerminal: """
        no target: give --to TARGET (the target picker needs a terminal, and standard input or output is \
        not one)
        """,
        .pickerCancelled: "cancelled; nothing was shared",
        .newPostDefaultTitle: "Shared with ShareKit",
        .previewMore: " (+{count} more)",
        .previewText: "Text: {text}",
        .previewStdin: "Standard input",
        .previewCommentOnly: "Comment only",
        .previewUnreadable: "{name} - cannot be read",
        .previewUnknownType: "unknown type",
        .previewLink: "Link: {url}",
        .pickerNote: "Only targets with write permission.",
        .pickerCancel: "Cancel",
        .pickerSend: "Send",
        .pickerTitle: "Share",
        .pickerComment: "Comment",
        .pickerTo: "To: {target}",
        .pickerNoTarget: "(no target chosen)",
        .pickerSearch: "Search",
        .pickerNoRecents: "No recent targets: type to search.",
        .pickerRecents: "Recent targets:",
        .pickerSearching: "Searching for \"{query}\"...",
        .pickerSearchFailed: "Search failed: {error}",
        .pickerNoMatch: "No writable target matches \"{query}\".",
        .pickerResults: "Results for \"{query}\":",
        .pickerKeys: "Tab/arrows move - Enter chooses or sends - Esc cancels",
        .pickerChooseFirst: "Choose a target first: pick one of the list, or search for one.",
        .stdinNotTerminal: "standard input is not a terminal",
        .progressValues: "--progress must be auto, bar, lines or off",
        .noPasswordOnStdin: "no password on standard input (--password-stdin reads one line)",
        .noTerminalForPassword: "no terminal to ask for the password on; give it with --password-stdin",
        .cannotSetUpTerminal: "cannot set up the terminal for the password; give it with --password-stdin",
        .noPasswordTyped: "no password was typed",
        .inboxHelp: """
        Usage: share inbox list [--json]
               share inbox show ID [--json]
               share inbox retry ID [--json] [--progress auto|bar|lines|off] [--no-progress]
                                [--on-cancel keep|remove|discard] [--undo-window SECONDS]
                                [--server URL] [--verbose]
               share inbox drop ID [--json]
               share inbox clean [--json]

        Every share that is not on the server yet, wherever it is: in the share inbox
        (share send keeps a share there when the server cannot be reached or no session
        is usable) or in share-daemon's outbox (the daemon takes inbox entries over and
        sends them). A share keeps the id share send printed for its whole life. Lines
        name a share by a short id, the end of its id (at least 6 characters, unique
        among the shares shown); show, retry and drop take it, the whole id, or any
        unique beginning or end of the id of at least 6 characters.

          list    every share that waits, is being sent or was refused, with where it
                  is (share inbox, share-daemon's outbox), its age, target, files,
                  attempts and last error; entries older than the maximum age, and
                  quarantined entries with the reason.
          show    one share (never a token: manifests and the outbox hold none).
          retry   a share in the inbox: send it now with this program's session at
                  the server it was made for (the outcome and exit code are those of
                  share send; --verbose or SHAREKIT_VERBOSE=1: each step; a --server
                  naming another server is refused). A share in the outbox, waiting or
                  refused (after you fixed the cause): due again at once for share-daemon.
          drop    delete one share: an inbox entry (waits for a sender that holds it),
                  a quarantined one, or one of the outbox that waits or was refused.
                  A share interrupted with Ctrl-C waits its undo window (share send
                  --undo-window, 30 s) before share-daemon may send it: dropping it
                  then takes it back. Dropping a share whose message may already be
                  on the server says so: it stops ShareKit, not the server.
          clean   delete now what sent, dropped or interrupted shares left in the
                  inbox's staging folder. share send starts it in the background
                  after sending a share of 64 MiB or more, so that it answers
                  without waiting for the copy to be deleted; any later listing of
                  the inbox does the same. Folders a running share holds stay.

        Exit codes: 0 done, 1 no such share or it is busy, 2 invalid command line (an
        id shorter than 6 characters or one that names several shares),
        3 retried and kept again, 4 retried and refused, 130 interrupted.

        """,
        .unknownSubcommand: "unknown subcommand '{sub}'{suggestion}",
        .inboxNeedsID: "share inbox {sub} needs one entry ID",
        .inboxTakesNoID: "share inbox {sub} takes no ID",
        .inboxCleaned: "removed {count} leftover folder(s) from the share inbox",
        .inboxNothingToClean: "nothing left over in the share inbox",
        .inboxQuarantinedNoRetry: "{id} is quarantined and cannot be sent; share inbox show {id} says why",
        .outboxUnreadable: "share-daemon's outbox cannot be read: {error}",
        .nothingWaits: "nothing waits: the share inbox is empty, and so is share-daemon's outbox",
        .stateBeingSentInbox: "being sent now (share inbox)",
        .stateWaitingInbox: "waiting in the share inbox",
        .stateOlderThanMaximum: "{state}, older than the maximum age",
        .listLine: "{id}  {age}  {target}  {files} {files|file|files}, {bytes}  attempts {attempts}  {state}",
        .lastErrorLine: "    last error: {error}",
        .outboxRefusedLine: """
        {id}  refused by the server, not sent: {reason} (to {target}); in share-daemon's outbox: share \
        inbox drop {id}, or share inbox retry {id} once the cause is fixed
        """,
        .refusedFallback: "refused",
        .stateBeingSentDaemon: "being sent by share-daemon",
        .stateWaitingOutbox: "waiting in share-daemon's outbox",
        .stateNextAttempt: "{state} (next attempt in {wait})",
        .reportedRefusedLine: "{id}  refused by the server, not sent: {reason} (to {target})",
        .quarantinedLine: "{id}  quarantined: {reason}",
        .staleEntries: """
        {count} {count|entry is|entries are} older than the maximum age; send them (share inbox retry ID) \
        or drop them (share inbox drop ID)
        """,
        .fieldID: "id",
        .fieldWhere: "where",
        .fieldServer: "server",
        .fieldTarget: "target",
        .fieldCreated: "created",
        .fieldAttempts: "attempts",
        .fieldTitle: "title",
        .fieldRefused: "refused",
        .fieldLastError: "last error",
        .fieldMessage: "message",
        .fieldFile: "file",
        .fieldText: "text",
        .uploadedAs: " (uploaded as {upload})",
        .whereOutbox: "share-daemon's outbox, {state}",
        .whereInbox: "the share inbox, {state}",
        .stateBeingSentNow: "being sent now",
        .stateWaiting: "waiting",
        .createdAgo: "{time} ({age} ago)",
        .attemptsBeingSent: " (being sent now)",
        .quarantinedShow: """
        {id}: quarantined: {reason}
            kept in {directory}
        """,
        .noEntryListHint: "no entry {id} (share inbox list shows what waits)",
        .noEntry: "no entry {id}",
        .entryBusy: "entry {id} is being sent by another process right now",
        .daemonSendingTryLater: "{id} is being sent by share-daemon right now; try again when it is done",
        .daemonSending: "{id} is being sent by share-daemon right now",
        .alreadyOnServer: "{id} is on the server already (message {message})",
        .retryNow: "retry {id}: share-daemon will send it to {path} now",
        .retryDue: "retry {id}: due now; {advice}; it will send it to {path}",
        .outboxStateWaiting: "waiting",
        .outboxStateSending: "being sent now",
        .outboxStateSent: "sent",
        .outboxStateFailed: "refused by the server",
        .dropped: "dropped {id}",
        .idTooShort: """
        '{id}' is too short to name a share: give the id share inbox list shows (at least {minimum} \
        characters), or the whole id
        """,
        .idAmbiguous: "'{id}' names several shares; give the id of one of them:{matches}",
        .statusHelp: """
        Usage: share status [--json]

        Shows the server and account `share login` or `share accounts use` chose (and
        how many other accounts there are), whether the parent session
        (held by share-daemon) and the child session (used by share send) are stored
        and when their refresh tokens expire, how many shares wait in the share inbox
        (and how many are quarantined or older than the maximum age), and the state of
        share-daemon: its outbox and the shares it could not send, with the reason,
        whom it serves (user and server) and when it last reached that server, and
        the latest shares it delivered or refused (`share-daemon sent ID to TARGET`).
        Session ids are shown; tokens never are.

        Options:
          --json  print one JSON object on stdout: {"logged_in", "server", "user",
                  "parent", "child", "inbox", "daemon"} (a session is null when none is
                  stored, "daemon" is null when share-daemon is not running).

        Exit codes:
          0   the status was shown (also when not logged in)
          1   the keychain or the shared container cannot be opened
          2   invalid command line

        """,
        .statusServer: "server: {server}",
        .statusServerKindMatrix: "server kind: Matrix homeserver ({homeserver})",
        .statusUser: "user: {user}",
        .statusUnknownUser: "unknown",
        .statusNotLoggedInAt: "not logged in: run `share login --server {server} --user NAME`",
        .statusNotLoggedIn: "not logged in: run `share login --server URL --user NAME`",
        .statusParentSession: "parent session: {session}",
        .statusChildSession: "child session: {session}",
        .statusParentMissing: "none (log in)",
        .statusChildMissing: "none (share-daemon creates it)",
        .statusInbox: "share inbox: {waiting} waiting, {quarantined} quarantined, {stale} older than the maximum age",
        .statusInboxUnreadable: "share inbox: cannot be read: {error}",
        .statusDaemonSent: "share-daemon sent {id} to {target} at {time}",
        .statusDaemonRefused: "share-daemon could not send {id} to {target}: not sent: {reason} (at {time})",
        .statusSessionUnreadable: "unreadable ({error})",
        .statusSessionExpired: "{id} (refresh token expired {time})",
        .statusSessionExpires: "{id} (refresh token expires {time})",
        .statusDaemonNotRunning: "daemon: not running",
        .statusDaemonUnreadable: "daemon: running (its answer could not be read: {error})",
        .statusDaemonRunning: "daemon: running (pid {pid})",
        .statusDaemonOutbox: "  outbox: {pending} pending, {sending} sending, {sent} sent, {failed} failed",
        .statusDaemonChild: "  child session: {session}",
        .statusDaemonLastPass: "  last pass: {time}",
        .statusDaemonLastError: "  last error: {error}",
        .statusDaemonLastTakeover: "  last takeover at: {time}",
        .statusDaemonTakenOver: "  taken over: {count}",
        .statusDaemonQuarantined: "  quarantined: {entry}",
        .statusDaemonFailed: "  failed: {id} to {target}: {reason}",
        .unexpectedArgument: "unexpected argument {argument}",
        .loginHelp: """
        Usage: share login --server URL --user NAME [--password-stdin] [--allow-insecure-http] [--json]

        Signs in to a server. The new session (the parent session, bound to this
        device's key) is kept in the keychain for share-daemon, and the child session
        share send uses is made at once, so share send works right after login
        without a daemon; share-daemon keeps it alive afterwards. The account becomes
        the current one, the default of every share command, and a running
        share-daemon serves it from then on. Accounts at other servers stay (`share
        accounts` lists them, `share accounts use SERVER` switches back); another
        person's account at the same server is replaced.

        Options:
          --server URL      the server, https://host[:port]; http:// only for this
                            machine, spelled literally (localhost, 127.x.y.z without
                            leading zeros, [::1]).
          --user NAME       the username.
          --password-stdin  read the password from the first line of standard input
                            instead of asking on the terminal (no echo there).
          --allow-insecure-http
                            allow http:// to another machine: the password and every
                            token then cross the network in clear. For test networks.
          --json            print the result as one JSON object on stdout.

        Output: `logged in as NAME at URL`; with --json an object
        {"status": "logged_in", "server", "user", "session_id"}. The password and the
        tokens are never printed.

        Exit codes:
          0   logged in
          1   failure: wrong username or password, the server cannot be reached or
              refused, no terminal to ask on (use --password-stdin), a keychain error
          2   invalid command line (a --server that is not http(s)://host[:port], or
              http:// to another machine without --allow-insecure-http)

        """,
        .serverRequired: "--server URL is required",
        .serverForm: "--server must be http(s)://host[:port], not \"{server}\"",
        .insecureServer: """
        {origin} is plain http to another machine: the password would cross the network in clear. Use \
        https://, or --allow-insecure-http on a network you trust
        """,
        .userRequired: "--user NAME is required",
        .passwordPrompt: "Password for {user} at {origin}: ",
        .passwordEmpty: "the password is empty",
        .loggedInCannotRecord: "logged in, but cannot record it for the other programs: {error}",
        .noChildYet: "no session for share send yet ({reason}); share-daemon makes it when it runs",
        .loggedIn: "logged in as {user} at {origin}",
        .wrongCredentials: "wrong username or password for {user} at {origin}",
        .cannotReach: "cannot reach {origin} now ({reason}); try again later",
        .loginRefused: "could not log in to {origin}: {reason}; nothing was changed on this device",
        .loginIncomplete: "login to {origin} did not complete: {reason}",
        .logoutHelp: """
        Usage: share logout [--server URL | --all] [--json]

        Logs out of one account (the current one, or --server's): asks the server to
        end the session (which ends share's child session too), then deletes from this
        device the tokens of both sessions, the account's recent targets and limits,
        and the account. When the server cannot be reached the tokens are still
        deleted here; the server then ends the session when it expires. The accounts
        at other servers stay, and the output names them; after logging out of the
        current account none is current until `share accounts use SERVER` or
        `share login` chooses one. A running share-daemon follows at once.

        Shares waiting in the share inbox stay there and are sent after the next login.

        Options:
          --server URL  the server to log out of (default: the current account's).
          --all         log out of every account on this device: each session is
                        ended at its server where that is reachable, and deleted here
                        where it is not; the output says which for each server.
          --json        print the result as one JSON object on stdout:
                        {"status": "logged_out", "server", "server_result":
                        "revoked"|"already_ended"|"unreachable"|"failed"|"not_logged_in",
                        "deleted": [...], "errors": [...], "remaining_accounts":
                        [{"server", "user"}]}; with --all {"status", "accounts":
                        [{"server", "user", "server_result", "deleted", "errors"}],
                        "errors"}.

        Exit codes:
          0   logged out here (also when the server could not be told)
          1   something could not be deleted on this device (the message says what)
          2   invalid command line

        """,
        .logoutNoServer: "no server is recorded: not logged in",
        .logoutWhatRecents: "the recent targets",
        .logoutWhatLimits: "the server's limits",
        .logoutWhatAccount: "the account",
        .logoutCannotSetUp: "cannot set up the client for {origin}: {error}",
        .logoutRevoked: "the server at {origin} ended the session and its child sessions",
        .logoutNoSession: "no session was stored for {origin}",
        .logoutAlreadyEnded: "the session at {origin} had already ended ({reason})",
        .logoutUnreachable: """
        could not reach the server at {origin} ({reason}): it was not told; the session ends there when it \
        expires
        """,
        .logoutNotEnded: "the server at {origin} did not end the session ({reason}); the tokens are deleted anyway",
        .logoutCannotDeleteTokens: "cannot delete the {role} session's tokens: {error}",
        .logoutDeletedTokens: "deleted the tokens of both sessions from the keychain",
        .logoutCannotDelete: "cannot delete {what}: {error}",
        .logoutDeletedRest: "deleted the recent targets, the server's limits and the account",
        .loggedOut: "logged out",
        .notifyHelp: """
        Usage: share notify --payload FILE|- [--print] [--json] [--no-wait]

        Renders one push payload (docs/protocol.md "Push": aps and b with v, nid, k, i, t, m)
        the way the notification extension does: within client.push.fetch_timeout it
        fetches the preview with the push registration's preview token and shows names
        and excerpt as notify.preview_mode allows. With mode none it fetches nothing and
        shows the placeholder; when the message is gone it shows "Message not available";
        without an answer in time the placeholder stays. A payload whose b.v is not 1 is
        shown as sent.

        By default the result is shown as a desktop notification with notify-send
        (grouped per thread through a hint, the badge as a hint); SHAREKIT_NOTIFY_COMMAND
        names another program that takes the same arguments. aps.interruption-level sets
        the urgency (passive: low, active: normal, time-sensitive and critical:
        critical); aps.sound asks for the desktop's message sound, no sound (or passive)
        for none. When the preview carries the message's web link (on the server the
        preview came from, http or https), the notification offers it as its default
        action: share notify waits until the notification is clicked, and then opens the
        link with xdg-open (SHAREKIT_OPEN_COMMAND names another program), or closed.

        Options:
          --payload FILE  the payload's JSON, or - for standard input.
          --print         print the title and the body (two lines) instead.
          --json          print one JSON object instead: {"title", "body", "thread_id",
                          "placeholder": true|false, "outcome":
                          "preview"|"not_available"|"placeholder"|"unchanged", "kind",
                          "nid", "badge", "urgency": "low"|"normal"|"critical", "sound",
                          "link", "failure"}.
          --no-wait       show the notification without its default action and return
                          at once.

        Texts follow LC_ALL, LC_MESSAGES, LANG and LANGUAGE (English and German).

        Exit codes:
          0   rendered (and shown, unless --print or --json)
          1   the payload cannot be read or lacks a required member, the notification
              could not be shown, or its link could not be opened
          2   invalid command line


        """,
        .cannotReadPayload: "cannot read the payload file {file}",
        .pushRemoved: "removed the push registration",
        .pushRemovedHere: "removed the push registration here (the server was not told: {error})",
        .pushCannotDelete: "cannot delete the push registration from the keychain: {error}",
        .targetsHelp: """
        Usage: share targets [--search QUERY] [--limit N] [--json] [--server URL]

        Without --search: the recent targets of the account at the server, newest
        first (the targets of its last successful shares; they work offline; another
        server's targets never). With --search: the threads and channels
        whose names start with or contain QUERY, ignoring case and accents; only
        targets with write permission; a forum channel is offered as a new post.

        Each line shows the display path and the reference to give `share send --to`.
        --json prints an array of {"kind", "id", "display_path"}.

        Exit codes: 0 listed (possibly nothing), 1 the server cannot be asked (search
        only), 2 invalid command line.

        """,
        .limitPositive: "--limit must be a positive number",
        .cannotSearch: "cannot search {origin}: {error}",
        .noRecentTargets: "no recent targets yet: search with `share targets --search NAME`",
        .noWritableMatch: "no writable target matches",
        .desktopEntryHelp: """
        Usage: share desktop-entry [--install [--json]]

        Prints the freedesktop desktop entry that offers ShareKit in the applications
        menu, in file managers' "Open with" and for links dropped on its launcher (the
        file contrib/desktop/sharekit.desktop is this text). It runs
        `share send --desktop %U`: files, web links (https://...) and the links of a
        *.uri-list file become the share's items; on a display with share-sheet
        installed the share sheet opens (from the menu: with the clipboard's text).
        --install writes it into $XDG_DATA_HOME/applications (by default
        ~/.local/share/applications) and updates that folder's MIME cache with
        update-desktop-database, so that "Open with" lists ShareKit at once.

        Exit codes: 0 printed or installed, 1 the entry could not be written,
        2 invalid command line.

        """,
        .desktopEntryNoArguments: "takes no arguments; it prints contrib/desktop/sharekit.desktop",
        .desktopEntryInstalled: "installed the desktop entry: {path}",
        .desktopEntryCannotInstall: "cannot write the desktop entry {path}: {error}",
        .desktopEntryNoDataHome: "neither XDG_DATA_HOME nor HOME is an absolute path: nowhere to install the entry",
        .desktopEntryNoMimeCache: """
        update-desktop-database (desktop-file-utils) did not run: file managers may list ShareKit in \
        "Open with" only after their next scan
        """,
        .desktopHowToShare: """
        Nothing was shared: no terminal or chooser to ask where it should go. In a terminal, run `share \
        send FILE` to pick a target, or `share send FILE --to TARGET` (`share targets` lists them).
        """,
        .notifyNotShared: "ShareKit: not shared",
        .notifyCancelled: "ShareKit: cancelled",
        .notifyNothingShared: "Nothing was shared.",
        .notifyQueued: "ShareKit: queued",
        .notifyShared: "ShareKit: shared",
        .notifyNotSentYet: "ShareKit: not sent yet",
        .notifySentTo: "sent to {path}: message {message}",
        .chooserQuestion: "Share {items} {items|item|items} to:",
        .chooserReference: "Reference",
        .chooserTarget: "Target",
        .notifySentToAgain: "sent to {path}: message {message} (it had already been delivered)",
        .desktopListNamesFile:
            "{list}: a list of links is shared as its links only, and it names a local file ({uri}); nothing "
            + "was shared (share the file itself if you mean to)",
        .completionsHelp: """
        Usage: share completions bash|zsh|fish

        Prints a completion script for the shell, made from the same option
        declarations as share's parser:

          source <(share completions bash)          # bash, or save it in
                                                    # ~/.local/share/bash-completion/completions/share
          share completions zsh > ~/.zfunc/_share    # zsh, with ~/.zfunc on $fpath
          share completions fish > ~/.config/fish/completions/share.fish

        Besides commands, options and file names, Tab completes the value of
        --to with the recent targets of the account you are logged in to
        (thread:t1, channel:c2) and the ID of share inbox show|retry|drop with
        the ids share inbox list shows; share reads them from this machine at
        each Tab, never from the server.

        Exit codes: 0 printed, 2 no such shell.

        """,
        .referenceHelp: """
        Usage: share reference

        Prints the CLI reference in Markdown (every command, its usage and options),
        made from the same declarations as the parser; README.md's "CLI reference" is
        this text (tools/cli-docs writes it there).

        Exit codes: 0 printed, 2 invalid command line.

        """,
        .programSummary: "share text, links and files into a chat thread or channel",
        .manpageHelp: """
        Usage: share manpage

        Prints the manual page of share (roff), made from the same help texts as --help;
        tools/cli-docs writes it to contrib/man/share.1.

        """,
        .takesNoArguments: "takes no arguments",
        .nameOneShell: "name one shell: bash, zsh or fish{suggestion}",
        .completeUnknownKind: "'{kind}' is nothing share completes; name one of: {kinds}",
        .summarySend: "share files, links or text to a target",
        .summaryInbox: "list, show, retry or drop shares waiting in the inbox or the daemon's outbox",
        .summaryLogin: "log in to a server (creates the parent and child sessions)",
        .summaryLogout: "log out and delete every token",
        .summaryStatus: "show session, daemon and outbox state",
        .summaryTargets: "list recent targets or search for one",
        .summaryDesktopEntry: "print the freedesktop desktop entry",
        .summaryNotify: "render a push payload as a notification",
        .summaryDebug: "debugging aids: dpop-proof, jwk, get",
        .summaryManpage: "print this program's manual page (roff; contrib/man/share.1)",
        .summaryCompletions: "print a shell completion script",
        .summaryReference: "print the CLI reference (Markdown; README.md's CLI reference)",
        .interruptedMayBeOnServer: """
        interrupted; the message may already be on the server; the share was kept for share-daemon, which \
        finishes it without sending twice (share inbox entry {id})
        """,
        .waitingForAnswer: """
        interrupted after the message was sent to the server; waiting up to {seconds} s for its answer \
        (Ctrl-C again stops waiting)
        """,
        .sentDespiteInterrupt: "interrupted, but the server had already stored the message",
        .summaryAccounts: "list the accounts on this device, or choose the current one",
        .accountsHelp: """
        Usage: share accounts [list] [--json]
               share accounts use SERVER [--json]

        Every account on this device: the server, the username signed in there, which
        one is current (marked *), and whether its session still works. This device
        keeps one account per server; `share login` adds one (or replaces the one at
        the same server) and makes it current, `share logout` ends the current one
        (or --server's), `share logout --all` ends every one.

        The current account is the default of every command: `share send` sends with
        it, the picker and `share targets` show its recent targets, and share-daemon
        serves it (it follows a switch at once). A share always goes to the server it
        was made for, with the account there.

        use SERVER  make the account at SERVER the current one.
        --json      print one JSON object on stdout: list: {"current", "accounts":
                    [{"server", "user", "current", "session":
                    "ok"|"expired"|"none"|"unreadable", "refresh_expires_at"}]};
                    use: {"status": "switched", "server", "user", "session"}.

        Only the keychain is read: no server is asked, and no token is printed.

        Exit codes:
          0   listed, or switched
          1   no account at SERVER on this device, or the keychain cannot be read
          2   invalid command line

        """,
        .accountsUseNeedsServer: "share accounts use needs the SERVER of an account (`share accounts` lists them)",
        .accountsNone: "no accounts on this device: run `share login --server URL --user NAME`",
        .accountsLine: "{server}  {user}  {session}",
        .accountsSessionUntil: "signed in (refresh token expires {time})",
        .accountsSessionExpired: "session expired {time}: run `share login` again",
        .accountsSessionNone: "not signed in: run `share login`",
        .accountsNoneCurrent: "no account is current: `share accounts use SERVER` chooses one",
        .accountsNoAccount: """
        no account for {server} on this device: `share login --server {server} --user NAME` adds one \
        (`share accounts` lists them)
        """,
        .accountsNowUsing: "now using {user} at {server}",
        .accountAt: "{user} at {server}",
        .noCurrentAccount: """
        no current account: choose one with `share accounts use SERVER` (`share accounts` lists them), or \
        give --server URL
        """,
        .logoutAllOrServer: "--all logs out of every account: it takes no --server",
        .logoutNoAccounts: "no account on this device: nothing to log out of",
        .logoutAccountHeading: "{server} ({user}):",
        .loggedOutOfOne: "logged out of 1 account",
        .loggedOutOfAll: "logged out of {count} accounts",
        .logoutOthersStay: """
        the accounts at other servers stay: {accounts}; `share accounts use SERVER` makes one the current \
        account
        """,
        .logoutCurrentStays: "the current account is still the one at {server}",
        .statusOtherAccounts: "other accounts on this device: {count} (`share accounts` lists them)",
        .statusDaemonServes: "  serves {user} at {server}",
        .statusDaemonServesServer: "  serves {server}",
        .statusDaemonServesNone: "  serves no account: it waits for `share login` or `share accounts use SERVER`",
        .statusDaemonLastReached: "  last reached the server: {time}",
        .statusDaemonNotReached: "  has not reached the server yet",
        .statusDaemonNotCurrent: "  (the current account is at {server}: the daemon follows at its next pass)",
        .retryOtherServer: """
        {id} was made for {server} and goes there only (its target is a place on that server); \
        leave out --server, or `share login --server {server}` first
        """,
        .accountsServerForm: "SERVER must be http(s)://host[:port], as `share accounts` lists it, not \"{server}\"",
        .progressTimeLeft: "ETA {time}",
        .sentToTerminal: "sent to {path}: message {message}",
        .sentToAgainTerminal: "sent to {path}: message {message} (it had already been delivered)",
        .undoWindowRange: "--undo-window must be a number of seconds from 0 (no wait) to {maximum}",
        .interruptedUndo: """
        interrupted; the share was kept as {id}: share-daemon sends it to {path} in {seconds} s, unless you \
        take it back first with: share inbox drop {id}
        """,
        .interruptedMayBeOnServerUndo: """
        interrupted after the message was sent, before the server answered: it may already be in {path}. \
        The share was kept as {id}; in {seconds} s share-daemon finishes it without sending it twice. \
        share inbox drop {id} stops that, but cannot take back a message the server already has
        """,
        .stateUndoWindow: "interrupted; share-daemon may send it in {wait} (share inbox drop {id} takes it back)",
        .droppedMayBeOnServer: """
        dropped {id}; but its message may already be on the server (an attempt asked for it and no answer \
        came): look in {path}. Dropping stops ShareKit, not the server
        """,
        .sheetHelp: """
        Usage: share-sheet [FILE|URL ...]
               share-sheet --text TEXT
               share-sheet --clipboard | --selection

        Opens the share sheet: a window that shares files, links and text into a
        thread or channel, as `share send` does (the same share inbox, the same
        delivery, share-daemon sends what the window cannot).

          FILE|URL       files to attach, links to put into the message.
          --text TEXT    text to share (repeatable).
          --clipboard    share the text on the clipboard.
          --selection    share the selected text (the primary selection).
          --help         show this help.

        Keys: type to search; Down and Up choose among the targets; Enter takes the
        chosen one; Tab reaches the comment; Ctrl+Enter sends; Escape cancels and
        keeps nothing. Needs a display (X11 or Wayland).
        """,
        .sheetTitle: "Share",
        .sheetCancel: "Cancel",
        .sheetSend: "Send",
        .sheetSearch: "Search",
        .sheetSearchHint: "Search threads and channels",
        .sheetComment: "Comment",
        .sheetCommentHint: "Add a comment",
        .sheetRecent: "Recent",
        .sheetMatches: "Matches for „{query}“",
        .sheetNoMatch: "No writable thread or channel matches.",
        .sheetNoRecent: "No recent targets yet: search for a thread or channel.",
        .sheetChooseTarget: "Choose where to share.",
        .sheetTargetChosen: "To {path}",
        .sheetNewPost: "New post in {path}",
        .sheetSending: "Sending to {path} ...",
        .sheetProgress: "{name}: {done} of {total}, {rate}/s",
        .sheetSent: "Sent to {path}.",
        .sheetKeptForDaemon: "Not sent yet: share-daemon sends it to {path}.",
        .sheetNoAccount: "No account yet: log in to share.",
        .sheetServer: "Server",
        .sheetUser: "User",
        .sheetPassword: "Password",
        .sheetLogIn: "Log in",
        .sheetLoggingIn: "Logging in ...",
        .sheetNoDisplay: """
        no display: share-sheet needs X11 or Wayland (DISPLAY or WAYLAND_DISPLAY); use `share send` in a \
        terminal
        """,
        .sheetEmptyClipboard: "There is no text to share on the clipboard or in the selection.",
        .sheetUnknownOption: "share-sheet: unknown option {option}; see share-sheet --help",
    ]
}
