public import ShareKitCore
import ShareKitMessagesInterface

/// What share-daemon says to a person, English and German: its help and
/// its desktop notifications. Its log is English (scripts and `grep` read
/// it) and is not here. The daemon runs in English
/// (``ShareDaemonProgram/main(_:io:environment:stopDeadline:)``); these texts ask for
/// the environment's language (``ShareKitCore/Language/process``) explicitly.
public enum DaemonText: String, StringTableKey {
    case help = "daemon.help"
    case notifySentTitle = "daemon.notify_sent_title"
    case notifySent = "daemon.notify_sent"
    case notifyRefusedTitle = "daemon.notify_refused_title"
    case notifyRefused = "daemon.notify_refused"

    /// The table.
    public static let table = StringTable<DaemonText>(
        english: [
            .help: """
            share-daemon: the ShareKit daemon (session keeper, inbox takeover, outbox)

            Usage: share-daemon [--once] [--verbose] [--interval SECONDS] [--retry-now] [--lease SECONDS]
                                [--max-notifications N] [--no-notifications] [--control-timeout SECONDS]
                   share-daemon --help | -h | help | --version | --manpage

            Runs in the foreground until SIGTERM or SIGINT (systemd: contrib/systemd/share-daemon.service).
            Services: the child session for `share` (createExtensionSession, share_ext),
            the parent session's refresh, the server's limits in the shared state, the
            takeover of the share inbox into the outbox (at start, on inotify, on
            `share send --queue`, and every interval; a share interrupted with Ctrl-C
            only after its undo window), the outbox (sends each share
            exactly once, retries with backoff), the recent targets (access.changed),
            push: the registration (made again after a new login or when the server
            refuses its preview token) and the notifications of the event feed's pushes
            (a click opens the message's web link with xdg-open).
            It serves the current account of the keychain and follows a change without a
            restart: `share login` at another server, `share accounts use` and
            `share logout` wake it, and it looks again at least once a minute. A share
            queued for another server than the one served is sent there with the session
            stored for that server.

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
              --max-notifications N
                                  the most notification programs (notify-send, and
                                  xdg-open after a click) alive at once (default 16,
                                  1 to 256); a push beyond them waits for a free one,
                                  the newest only, and the log says what was dropped
              --no-notifications  show no notification for pushes (the messages
                                  others write); by default each is shown, one
                                  notification per thread
              --control-timeout SECONDS
                                  the time a client of the control socket has for its
                                  request and the answer (default 2, 0.05 to 60)
              --help              show this text
              --version           show the version
              --manpage           print the manual page (roff; contrib/man/share-daemon.1)

            Logs go to standard error, never a token, in English (for scripts and grep): in journald's form
            (`<6>service: message`) when standard error is the journal (JOURNAL_STREAM),
            plain lines (`service: message`, `error: service: message`) elsewhere.
            Started on a terminal (`share-daemon &`), the daemon writes them to
            daemon.log in its state directory instead (0600; moved to daemon.log.1
            when over 16 MiB at start), says so in one line, and says on the terminal
            what stopped it; --verbose (or --once) keeps them on the terminal.
            Each stage of a share (taken over, each attempt and upload, sent, not sent
            yet, refused with the reason) is one line with the share's id, so
            `journalctl --user -u share-daemon | grep ID` tells what became of it.
            Desktop notifications follow LC_ALL, LC_MESSAGES, LANG and LANGUAGE (English
            and German).
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

            """,
            .notifySentTitle: "ShareKit: sent",
            .notifySent: "sent to {target}",
            .notifyRefusedTitle: "ShareKit: not sent",
            .notifyRefused: "not sent: {reason}",
        ],
        german: [
            .help: """
            share-daemon: der ShareKit-Daemon (Sitzungen, Übernahme des Teilen-Eingangs, Ausgang)

            Aufruf: share-daemon [--once] [--verbose] [--interval SEKUNDEN] [--retry-now] [--lease SEKUNDEN]
                                 [--max-notifications N] [--no-notifications] [--control-timeout SEKUNDEN]
                    share-daemon --help | -h | help | --version | --manpage

            Läuft im Vordergrund bis SIGTERM oder SIGINT (systemd: contrib/systemd/share-daemon.service).
            Dienste: die Kind-Sitzung für `share` (createExtensionSession, share_ext), die
            Erneuerung der Eltern-Sitzung, die Limits des Servers im gemeinsamen Zustand, die
            Übernahme des Teilen-Eingangs in den Ausgang (beim Start, über inotify, bei
            `share send --queue` und in jedem Intervall; ein mit Strg-C unterbrochener
            Inhalt erst nach seiner Frist zum Zurücknehmen), der Ausgang (sendet jeden Inhalt
            genau einmal, neue Versuche mit Backoff), die letzten Ziele (access.changed),
            Push: die Registrierung (neu nach einer neuen Anmeldung oder wenn der Server ihr
            Vorschau-Token ablehnt) und die Benachrichtigungen der Pushes des Ereignis-Feeds
            (ein Klick öffnet den Web-Link der Nachricht mit xdg-open).
            Er bedient das aktuelle Konto des Schlüsselbunds und folgt einem Wechsel ohne
            Neustart: `share login` bei einem anderen Server, `share accounts use` und
            `share logout` wecken ihn, und er sieht mindestens einmal pro Minute nach. Ein
            Inhalt für einen anderen Server als den bedienten wird dorthin gesendet, mit der
            für diesen Server gespeicherten Sitzung.

            Optionen:
              --once              ein Durchgang jedes Dienstes, dann Ende
              --verbose           jeden Schritt protokollieren (Debug-Zeilen); SHAREKIT_VERBOSE=1
                                  in der Umgebung tut dasselbe
              --interval SEKUNDEN wie oft Eingang und Ausgang ohne Benachrichtigung angesehen
                                  werden (Standard 30)
              --retry-now         beim Start jeden wartenden Versand sofort fällig machen, sein
                                  Backoff vergessen (der Server ist zurück); bei einem laufenden
                                  Daemon tut `retry` auf seinem Steuer-Socket dasselbe
              --lease SEKUNDEN    wie lange ein Versand, den ein abgestürzter Daemon beansprucht
                                  hat, beansprucht bleibt, bevor ein anderer Durchgang ihn nimmt
                                  (Standard 600; erneutes Senden ist sicher, der Server antwortet
                                  mit einer Wiederholung)
              --max-notifications N
                                  die meisten Benachrichtigungsprogramme (notify-send, und
                                  xdg-open nach einem Klick), die zugleich leben (Standard 16,
                                  1 bis 256); ein Push darüber wartet auf ein freies, nur der
                                  neueste, und das Protokoll sagt, was verworfen wurde
              --no-notifications  keine Benachrichtigung für Pushes zeigen (die Nachrichten
                                  anderer); sonst wird jeder gezeigt, eine Benachrichtigung
                                  je Thread
              --control-timeout SEKUNDEN
                                  die Zeit, die ein Client des Steuer-Sockets für seine Anfrage
                                  und die Antwort hat (Standard 2, 0,05 bis 60)
              --help              diesen Text zeigen
              --version           die Version zeigen
              --manpage           die Handbuchseite ausgeben (roff; contrib/man/share-daemon.1)

            Das Protokoll geht auf die Standardfehlerausgabe, nie ein Token, und ist englisch
            (für Skripte und grep): in der Form von journald (`<6>service: message`), wenn die
            Standardfehlerausgabe das Journal ist (JOURNAL_STREAM), sonst schlichte Zeilen
            (`service: message`, `error: service: message`). Auf einem Terminal gestartet
            (`share-daemon &`), schreibt der Daemon sie stattdessen nach daemon.log in seinem
            Zustandsverzeichnis (0600; bei über 16 MiB beim Start nach daemon.log.1
            verschoben), sagt das in einer Zeile und sagt auf dem Terminal, was ihn beendet
            hat; --verbose (oder --once) lässt sie auf dem Terminal. Jeder Schritt eines Inhalts
            (übernommen, jeder Versuch und Upload, gesendet, noch nicht gesendet, abgelehnt
            mit dem Grund) ist eine Zeile mit der ID des Inhalts, so sagt
            `journalctl --user -u share-daemon | grep ID`, was aus ihm wurde. Desktop-
            Benachrichtigungen folgen LC_ALL, LC_MESSAGES, LANG und LANGUAGE (Englisch und
            Deutsch). Der Steuer-Socket (0600) ist $SHAREKIT_RUNTIME_DIR/daemon.sock, sonst
            <container>/run/daemon.sock bei SHAREKIT_CONTAINER_DIR, sonst
            $XDG_RUNTIME_DIR/sharekit/daemon.sock. Der Ausgang liegt in $SHAREKIT_STATE_DIR,
            sonst <container>/daemon bei SHAREKIT_CONTAINER_DIR, sonst
            $XDG_STATE_HOME/sharekit (~/.local/state/sharekit).

            Exit-Codes:
              0   durch SIGTERM/SIGINT beendet, oder --once hat seinen Durchgang beendet
              1   jemand muss handeln: nicht angemeldet (share login), ein Speicher, der sich
                  nicht öffnen lässt, ein anderer Daemon läuft schon für diesen Container
              2   ungültige Befehlszeile

            """,
            .notifySentTitle: "ShareKit: gesendet",
            .notifySent: "gesendet an {target}",
            .notifyRefusedTitle: "ShareKit: nicht gesendet",
            .notifyRefused: "nicht gesendet: {reason}",
        ])

    /// The body of the notification of a share the server refused, in the
    /// environment's language: the refusal (kept in English) is written
    /// again in that language where ShareKit wrote it.
    /// - Parameter message: the refusal as the outbox keeps it.
    static func refused(_ message: String) -> String {
        table.text(.notifyRefused, ["reason": RetryReason.localizedKept(message)(.process)], in: .process)
    }
}
