extension CLIText {
    /// The German texts.
    static let german: [CLIText: String] = [
        .sendHelp: """
        Aufruf: share send [DATEI|URL ...] [--text T] [--stdin] [--to ZIEL] [--comment K]
                           [--new-post TITEL] [--queue] [--json] [--server URL]
                           [--on-cancel keep|remove|discard] [--undo-window SEKUNDEN]
                           [--load-timeout SEKUNDEN] [--keep-metadata] [--desktop]
                           [--progress auto|bar|lines|off] [--no-progress] [--verbose]

        Teilt Dateien, Links und Text als eine Nachricht in einen Thread oder Kanal.

        Elemente (in dieser Rangfolge: Bild, PDF, Datei, Link, Text):
          DATEI           ein Pfad oder eine file://-URL: wird als Anhang hochgeladen.
                          Mehrere Dateien ergeben eine Nachricht (höchstens
                          message_max_attachments).
          URL             jede andere URL (https://...): kommt in den Text der Nachricht.
          --text T        Text für die Nachricht (mehrfach möglich).
          --stdin, -      die Standardeingabe lesen: Text kommt in die Nachricht, alles
                          andere wird als Datei angehängt.
        Ziel:
          --to ZIEL       thread:ID, channel:ID, new-post:CHANNEL_ID oder ein Anzeigepfad
                          wie "server > Gateway > resume the gateway". Ohne --to öffnet
                          sich auf einem Terminal eine Zielauswahl im ganzen Fenster
                          (letzte Ziele, Suche); ohne Terminal ist --to nötig.
          --new-post TITEL  einen neuen Beitrag mit diesem Titel im Forum-Kanal ZIEL beginnen.
        Optionen:
          --comment K     der Kommentar der Nachricht (steht als Erstes im Text).
          --queue         den Inhalt in den Teilen-Eingang schreiben und sofort
                          zurückkehren; share-daemon sendet ihn (Exit 0, sobald er sicher
                          abgelegt ist).
          --json          das Ergebnis als ein JSON-Objekt auf stdout ausgeben.
          --server URL    der Server (Standard: der von `share login` gewählte).
          --on-cancel M   bei Strg-C: keep (Standard) lässt den Inhalt für den Daemon im
                          Eingang, nach der Frist zum Zurücknehmen; remove (oder discard)
                          löscht ihn sofort (für Skripte). Ist die Nachricht selbst
                          schon an den Server gegangen, wartet Strg-C bis zu 5 s auf seine Antwort
                          (ein zweites Strg-C wartet nicht länger): Gesendetes wird als
                          gesendet gemeldet; ohne Antwort bleibt der Inhalt für
                          share-daemon, was immer hier steht, denn die Nachricht kann
                          schon auf dem Server sein.
          --undo-window S nach Strg-C wartet ein behaltener Inhalt S Sekunden (Standard
                          30, 0 für keine, höchstens 3600), bevor share-daemon ihn senden
                          darf: die Meldung sagt das, und `share inbox drop ID` nimmt ihn
                          so lange zurück. Die Frist steht im Eintrag des Teilen-Eingangs,
                          so hält auch ein laufender Daemon sie ein.
          --load-timeout S  die Frist jedes Ladens (eine Datei, stdin, ein FIFO); Standard 30.
          --keep-metadata ein Foto behält seinen Ort (GPS), XMP und die Angaben zu
                          Besitzer und Kamera (siehe unten); standardmäßig werden sie
                          entfernt.
          --progress M    auto (Standard): auf einem Terminal ein Balken mit bestätigten
                          Bytes, Rate und Restzeit, in einer Pipe nichts; bar: immer den
                          Balken; lines: jede Sekunde eine schlichte Zeile
                          `progress NAME DONE/TOTAL bytes` (für Logs); off: nichts.
          --no-progress   dasselbe wie --progress off.
          --desktop       vom Desktop-Starter aufgerufen: jedes Argument danach ist eine
                          Datei oder URL, die der Desktop übergab, nie eine Option (--to
                          und die anderen Optionen gehören davor); eine *.uri-list-Datei
                          ist die Links, die sie aufführt (eine, die eine lokale Datei
                          nennt, wird abgelehnt). Öffnet die Zielauswahl in einem
                          Terminal-Emulator, sonst fragt es in einer grafischen Auswahl
                          (zenity, kdialog), sonst teilt es nichts und sagt, wie es
                          geht; das Ergebnis ist eine Desktop-Benachrichtigung
                          (docs/picker.md).
          --verbose       jede Stufe auf stderr nennen, eine Zeile je Stufe mit der ID des
                          Inhalts (in den Teilen-Eingang geschrieben, jeder Upload, die
                          Nachricht, gesendet, behalten oder abgelehnt mit dem Grund; es
                          sind Log-Zeilen, daher englisch); SHAREKIT_VERBOSE=1 in der
                          Umgebung tut dasselbe.

        Bevor etwas gesendet wird, liegt der Inhalt im Teilen-Eingang des gemeinsamen
        Containers; er wird entfernt, sobald der Server ihn hat oder endgültig
        abgelehnt hat. Der Inhaltstyp jeder Datei ergibt sich aus ihren Bytes (libmagic)
        und ihrem Namen (der gemeinsamen MIME-Datenbank); ein Typ, den der Server nicht
        annimmt, wird abgelehnt, bevor ein Byte gesendet ist. Eine Datei dort, wo
        Schlüssel, Passwörter oder Tokens liegen (~/.ssh, ~/.gnupg, ~/.aws, ~/.netrc,
        ~/.config/gh, Browser-Profile, /proc, ShareKits eigener Schlüsselbund,
        Container und Zustand), auch über einen symbolischen Link oder als
        Standardeingabe, wird nie gelesen: abgelehnt mit Exit-Code 4 (Code
        protected_file). Ein Bild (HEIC/HEIF, AVIF, WebP, TIFF, PNG, GIF) für einen
        Server, der seinen Typ nicht annimmt, aber image/jpeg, wird als <Name>.jpg
        gesendet, innerhalb der Ladefrist im Teilen-Eingang umgewandelt: seine
        Ausrichtung angewandt, Transparenz auf Weiß gelegt. Eines mit mehr als 64
        Megapixeln, ein beschädigtes oder ein animiertes wird abgelehnt. Jedes Foto,
        umgewandelt oder unverändert gesendet (ein JPEG oder PNG wird nicht neu
        kodiert), verliert seinen Ort (GPS), XMP, IPTC, Kommentare und die Angaben zu
        Besitzer und Seriennummern, außer mit --keep-metadata; die Originaldatei
        bleibt unverändert.

        Ausgabe: bei Erfolg `sent to <display path>: message <id>`; mit --json ein
        Objekt {"status": "sent"|"queued"|"rejected"|"cancelled"|"error", ...}.

        Texte für Menschen folgen LC_ALL, LC_MESSAGES, LANG und LANGUAGE (Englisch und
        Deutsch); --json, und die Zeile `sent to`, wenn die Standardausgabe kein Terminal
        ist, sind in jeder Sprache englisch, für Skripte.

        Eine Anfrage, die 30 s lang kein Byte bewegt (15 s bei einer Sitzungsanfrage),
        gilt als gescheitert, und der Inhalt wird behalten; SHAREKIT_HTTP_STALL_SECONDS=N
        gibt nach N Sekunden auf.

        Exit-Codes:
          0   gesendet (oder, mit --queue, für den Daemon abgelegt)
          1   Fehler: ein Element kann nicht gelesen oder nicht rechtzeitig geladen
              werden, kein Server, ein Ein-/Ausgabefehler
          2   ungültige Befehlszeile
          3   jetzt nicht gesendet (kein Netz, der Server ist ausgelastet oder gestört,
              keine Sitzung): im Teilen-Eingang behalten; share-daemon sendet ihn
          4   abgelehnt (kein Schreibrecht, zu groß, Typ nicht angenommen, unbekanntes
              Ziel); nichts wurde behalten
          130 unterbrochen (Strg-C); die Meldung sagt, ob der Inhalt behalten wurde und
              ob die Nachricht schon auf dem Server sein kann

        """,
        .runHelp: "{message}; siehe '{command} --help'",
        .newPostNeedsTitle: "--new-post braucht einen Titel",
        .onCancelValues: "--on-cancel muss keep, remove oder discard sein",
        .loadTimeoutRange: "--load-timeout muss eine Zahl von Sekunden zwischen 0 und 86400 sein",
        .nothingToShare: "nichts zu teilen: gib eine Datei, einen Link, --text, --stdin oder --comment an",
        .notSent: "nicht gesendet: {reason}",
        .daemonWillSend: "share-daemon sendet den Inhalt an {path}",
        .daemonWillSendWhenStarted: "{advice}; dann sendet er den Inhalt an {path}",
        .daemonNotRunning:
            "share-daemon läuft nicht: starte ihn mit `share-daemon &` oder `systemctl --user start share-daemon`",
        .notSentNow: "jetzt nicht gesendet: {reason}",
        .keptInInbox: "im Teilen-Eingang als {id} behalten; {who}",
        .queued: "eingereiht als {id}: {who}",
        .interruptedKept: "unterbrochen; der Inhalt bleibt als {id} im Teilen-Eingang für share-daemon",
        .interruptedRemoved: "unterbrochen; der Inhalt wurde entfernt",
        .tooManyAttachments:
            "eine Nachricht kann höchstens {limit} Anhänge haben (message_max_attachments); diese hat {count}",
        .waitingFor: "warte auf {host} ...",
        .noServer: """
        kein Server: melde dich zuerst mit `share login --server URL --user NAME` an, oder gib --server URL \
        an
        """,
        .serverVariableForm: "SHAREKIT_SERVER muss http(s)://host[:port] sein, nicht \"{server}\"",
        .notLoggedInAt: "nicht angemeldet bei {origin}: share login --server {origin}",
        .retryNotLoggedIn: """
        {id} wurde nicht gesendet: nicht angemeldet bei {origin}, also können weder share noch share-daemon \
        den Inhalt senden; er bleibt, wie er ist: share login --server {origin}, dann share inbox retry {id}; \
        oder share inbox drop {id}
        """,
        .newPostNeedsForum: "--new-post braucht einen Forum-Kanal (new-post:ID oder channel:ID), nicht {path}",
        .cannotLookUp: """
        "{text}" kann gerade nicht nachgeschlagen werden ({reason}); nimm einen Verweis wie thread:ID, der \
        auch offline funktioniert
        """,
        .notAKind: """
        '{text}' ist kein Ziel: '{kind}' ist keine Art von Ziel (nimm thread:ID, channel:ID, \
        new-post:CHANNEL_ID oder einen Anzeigepfad wie "server > Space > channel"){hint}
        """,
        .didYouMeanTarget: "; meintest du '{reference}'?",
        .quarantinedNotSent: "der Inhalt konnte nicht gesendet werden und wurde in Quarantäne gelegt: {reason}",
        .noTerminal: """
        kein Ziel: gib --to ZIEL an (die Zielauswahl braucht ein Terminal, und Standardeingabe oder \
        -ausgabe ist keins)
        """,
        .pickerCancelled: "abgebrochen; nichts wurde geteilt",
        .newPostDefaultTitle: "Mit ShareKit geteilt",
        .previewMore: " (+{count} weitere)",
        .previewText: "Text: {text}",
        .previewStdin: "Standardeingabe",
        .previewCommentOnly: "Nur ein Kommentar",
        .previewUnreadable: "{name} - nicht lesbar",
        .previewUnknownType: "unbekannter Typ",
        .previewLink: "Link: {url}",
        .pickerNote: "Nur Ziele mit Schreibrecht.",
        .pickerCancel: "Abbrechen",
        .pickerSend: "Senden",
        .pickerTitle: "Teilen",
        .pickerComment: "Kommentar",
        .pickerTo: "An: {target}",
        .pickerNoTarget: "(kein Ziel gewählt)",
        .pickerSearch: "Suche",
        .pickerNoRecents: "Keine letzten Ziele: tippe, um zu suchen.",
        .pickerRecents: "Letzte Ziele:",
        .pickerSearching: "Suche nach \"{query}\"...",
        .pickerSearchFailed: "Suche fehlgeschlagen: {error}",
        .pickerNoMatch: "Kein beschreibbares Ziel passt zu \"{query}\".",
        .pickerResults: "Ergebnisse für \"{query}\":",
        .pickerKeys: "Tab/Pfeile: bewegen - Enter: wählen oder senden - Esc: abbrechen",
        .pickerChooseFirst: "Wähle zuerst ein Ziel: eines aus der Liste, oder suche danach.",
        .stdinNotTerminal: "die Standardeingabe ist kein Terminal",
        .progressValues: "--progress muss auto, bar, lines oder off sein",
        .noPasswordOnStdin: "kein Passwort auf der Standardeingabe (--password-stdin liest eine Zeile)",
        .noTerminalForPassword: "kein Terminal, um nach dem Passwort zu fragen; gib es mit --password-stdin an",
        .cannotSetUpTerminal:
            "das Terminal kann für die Passworteingabe nicht eingerichtet werden; gib es mit --password-stdin an",
        .noPasswordTyped: "es wurde kein Passwort eingegeben",
        .inboxHelp: """
        Aufruf: share inbox list [--json]
                share inbox show ID [--json]
                share inbox retry ID [--json] [--progress auto|bar|lines|off] [--no-progress]
                                 [--on-cancel keep|remove|discard] [--undo-window SEKUNDEN]
                                 [--server URL] [--verbose]
                share inbox drop ID [--json]
                share inbox clean [--json]

        Alles Geteilte, das noch nicht auf dem Server ist, wo immer es liegt: im
        Teilen-Eingang (share send legt es dort ab, wenn der Server nicht erreichbar
        oder keine Sitzung verwendbar ist) oder im Ausgang von share-daemon (der Daemon
        übernimmt die Einträge des Eingangs und sendet sie). Ein geteilter Inhalt behält
        die ID, die share send ausgegeben hat, sein Leben lang. Zeilen nennen einen
        Inhalt mit einer kurzen ID, dem Ende seiner ID (mindestens 6 Zeichen, eindeutig
        unter den gezeigten Inhalten); show, retry und drop nehmen sie, die ganze ID
        oder jeden eindeutigen Anfang oder jedes eindeutige Ende von mindestens 6
        Zeichen.

          list    alles, was wartet, gerade gesendet wird oder abgelehnt wurde, mit Ort
                  (Teilen-Eingang, Ausgang von share-daemon), Alter, Ziel, Dateien,
                  Versuchen und letztem Fehler; Einträge über dem Höchstalter und
                  Einträge in Quarantäne mit dem Grund.
          show    einen Inhalt (nie ein Token: Manifeste und Ausgang enthalten keins).
          retry   einen Inhalt im Eingang jetzt mit der Sitzung dieses Programms an den
                  Server senden, für den er gemacht wurde (Ergebnis und Exit-Code wie
                  bei share send; --verbose oder SHAREKIT_VERBOSE=1: jeder Schritt; ein
                  --server, der einen anderen Server nennt, wird abgelehnt). Einen
                  Inhalt im Ausgang, wartend
                  oder abgelehnt (nachdem du die Ursache behoben hast): für share-daemon
                  sofort wieder fällig.
          drop    einen Inhalt löschen: einen Eintrag des Eingangs (wartet auf einen
                  Sender, der ihn hält), einen in Quarantäne, oder einen im Ausgang, der
                  wartet oder abgelehnt wurde. Ein mit Strg-C unterbrochener Inhalt
                  wartet seine Frist zum Zurücknehmen ab (share send --undo-window,
                  30 s), bevor share-daemon ihn senden darf: drop nimmt ihn dann
                  zurück. Kann seine Nachricht schon auf dem Server sein, sagt drop
                  das: es hält ShareKit auf, nicht den Server.
          clean   jetzt löschen, was gesendete, verworfene oder unterbrochene Inhalte
                  im Vorbereitungsordner des Eingangs zurückgelassen haben. share send
                  startet es im Hintergrund, nachdem es einen Inhalt von 64 MiB oder
                  mehr gesendet hat, und antwortet, ohne auf das Löschen der Kopie zu
                  warten; jede spätere Auflistung des Eingangs tut dasselbe. Ordner,
                  die ein laufendes share hält, bleiben.

        Exit-Codes: 0 erledigt, 1 kein solcher Inhalt oder er ist gerade belegt,
        2 ungültige Befehlszeile (eine ID mit weniger als 6 Zeichen oder eine, die
        mehrere Inhalte benennt), 3 erneut versucht und wieder behalten, 4 erneut versucht und
        abgelehnt, 130 unterbrochen.

        """,
        .unknownSubcommand: "unbekannter Unterbefehl '{sub}'{suggestion}",
        .inboxNeedsID: "share inbox {sub} braucht genau eine Eintrags-ID",
        .inboxCleaned: "{count} zurückgelassene Ordner aus dem Teilen-Eingang gelöscht",
        .inboxNothingToClean: "nichts zurückgelassen im Teilen-Eingang",
        .inboxTakesNoID: "share inbox {sub} nimmt keine ID",
        .inboxQuarantinedNoRetry:
            "{id} ist in Quarantäne und kann nicht gesendet werden; share inbox show {id} sagt, warum",
        .outboxUnreadable: "der Ausgang von share-daemon kann nicht gelesen werden: {error}",
        .nothingWaits: "nichts wartet: der Teilen-Eingang ist leer, der Ausgang von share-daemon auch",
        .stateBeingSentInbox: "wird gerade gesendet (Teilen-Eingang)",
        .stateWaitingInbox: "wartet im Teilen-Eingang",
        .stateOlderThanMaximum: "{state}, älter als das Höchstalter",
        .listLine: "{id}  {age}  {target}  {files|1 Datei|# Dateien}, {bytes}  Versuche {attempts}  {state}",
        .lastErrorLine: "    letzter Fehler: {error}",
        .outboxRefusedLine: """
        {id}  vom Server abgelehnt, nicht gesendet: {reason} (an {target}); im Ausgang von share-daemon: \
        share inbox drop {id}, oder share inbox retry {id}, sobald die Ursache behoben ist
        """,
        .refusedFallback: "abgelehnt",
        .stateBeingSentDaemon: "wird gerade von share-daemon gesendet",
        .stateWaitingOutbox: "wartet im Ausgang von share-daemon",
        .stateNextAttempt: "{state} (nächster Versuch in {wait})",
        .reportedRefusedLine: "{id}  vom Server abgelehnt, nicht gesendet: {reason} (an {target})",
        .quarantinedLine: "{id}  in Quarantäne: {reason}",
        .staleEntries: """
        {count|1 Eintrag ist|# Einträge sind} älter als das Höchstalter; sende sie (share inbox retry ID) \
        oder verwirf sie (share inbox drop ID)
        """,
        .fieldID: "ID",
        .fieldWhere: "Ort",
        .fieldServer: "Server",
        .fieldTarget: "Ziel",
        .fieldCreated: "Erstellt",
        .fieldAttempts: "Versuche",
        .fieldTitle: "Titel",
        .fieldRefused: "Abgelehnt",
        .fieldLastError: "Letzter Fehler",
        .fieldMessage: "Nachricht",
        .fieldFile: "Datei",
        .fieldText: "Text",
        .uploadedAs: " (hochgeladen als {upload})",
        .whereOutbox: "Ausgang von share-daemon, {state}",
        .whereInbox: "Teilen-Eingang, {state}",
        .stateBeingSentNow: "wird gerade gesendet",
        .stateWaiting: "wartet",
        .createdAgo: "{time} (vor {age})",
        .attemptsBeingSent: " (wird gerade gesendet)",
        .quarantinedShow: """
        {id}: in Quarantäne: {reason}
            aufbewahrt in {directory}
        """,
        .noEntryListHint: "kein Eintrag {id} (share inbox list zeigt, was wartet)",
        .noEntry: "kein Eintrag {id}",
        .entryBusy: "Eintrag {id} wird gerade von einem anderen Prozess gesendet",
        .daemonSendingTryLater:
            "{id} wird gerade von share-daemon gesendet; versuche es noch einmal, wenn er fertig ist",
        .daemonSending: "{id} wird gerade von share-daemon gesendet",
        .alreadyOnServer: "{id} ist schon auf dem Server (Nachricht {message})",
        .retryNow: "neuer Versuch für {id}: share-daemon sendet den Inhalt jetzt an {path}",
        .retryDue: "neuer Versuch für {id}: jetzt fällig; {advice}; dann sendet er den Inhalt an {path}",
        .outboxStateWaiting: "wartet",
        .outboxStateSending: "wird gerade gesendet",
        .outboxStateSent: "gesendet",
        .outboxStateFailed: "vom Server abgelehnt",
        .dropped: "verworfen: {id}",
        .idTooShort: """
        '{id}' ist zu kurz, um einen Inhalt zu benennen: gib die ID an, die share inbox list zeigt \
        (mindestens {minimum} Zeichen), oder die ganze ID
        """,
        .idAmbiguous: "'{id}' passt zu mehreren Inhalten; gib die ID von einem davon an:{matches}",
        .statusHelp: """
        Aufruf: share status [--json]

        Zeigt den Server und das Konto, die `share login` oder `share accounts use`
        gewählt hat (und wie viele Konten es sonst gibt), ob die
        Eltern-Sitzung (von share-daemon gehalten) und die Kind-Sitzung (von share send
        benutzt) gespeichert sind und wann ihre Refresh-Tokens ablaufen, wie viel im
        Teilen-Eingang wartet (und wie viel davon in Quarantäne oder älter als das
        Höchstalter ist) und den Zustand von share-daemon: seinen Ausgang und was er
        nicht senden konnte, mit dem Grund, wen er bedient (Benutzer und Server) und
        wann er den Server zuletzt erreicht hat, sowie das zuletzt von ihm Zugestellte
        oder Abgelehnte (`share-daemon hat ID an ZIEL gesendet`). Sitzungs-IDs werden
        gezeigt, Tokens nie.

        Optionen:
          --json  ein JSON-Objekt auf stdout ausgeben: {"logged_in", "server", "user",
                  "parent", "child", "inbox", "daemon"} (eine Sitzung ist null, wenn
                  keine gespeichert ist, "daemon" ist null, wenn share-daemon nicht läuft).

        Exit-Codes:
          0   der Status wurde gezeigt (auch ohne Anmeldung)
          1   der Schlüsselbund oder der gemeinsame Container kann nicht geöffnet werden
          2   ungültige Befehlszeile

        """,
        .statusServer: "Server: {server}",
        .statusServerKindMatrix: "Serverart: Matrix-Homeserver ({homeserver})",
        .statusUser: "Benutzer: {user}",
        .statusUnknownUser: "unbekannt",
        .statusNotLoggedInAt: "nicht angemeldet: melde dich mit `share login --server {server} --user NAME` an",
        .statusNotLoggedIn: "nicht angemeldet: melde dich mit `share login --server URL --user NAME` an",
        .statusParentSession: "Eltern-Sitzung: {session}",
        .statusChildSession: "Kind-Sitzung: {session}",
        .statusParentMissing: "keine (melde dich an)",
        .statusChildMissing: "keine (share-daemon legt sie an)",
        .statusInbox:
            "Teilen-Eingang: {waiting} wartend, {quarantined} in Quarantäne, {stale} älter als das Höchstalter",
        .statusInboxUnreadable: "Teilen-Eingang: kann nicht gelesen werden: {error}",
        .statusDaemonSent: "share-daemon hat {id} an {target} gesendet ({time})",
        .statusDaemonRefused: "share-daemon konnte {id} nicht an {target} senden: nicht gesendet: {reason} ({time})",
        .statusSessionUnreadable: "nicht lesbar ({error})",
        .statusSessionExpired: "{id} (Refresh-Token abgelaufen: {time})",
        .statusSessionExpires: "{id} (Refresh-Token läuft ab: {time})",
        .statusDaemonNotRunning: "Daemon: läuft nicht",
        .statusDaemonUnreadable: "Daemon: läuft (seine Antwort ist nicht lesbar: {error})",
        .statusDaemonRunning: "Daemon: läuft (PID {pid})",
        .statusDaemonOutbox: "  Ausgang: {pending} wartend, {sending} beim Senden, {sent} gesendet, {failed} abgelehnt",
        .statusDaemonChild: "  Kind-Sitzung: {session}",
        .statusDaemonLastPass: "  letzter Durchlauf: {time}",
        .statusDaemonLastError: "  letzter Fehler: {error}",
        .statusDaemonLastTakeover: "  letzte Übernahme: {time}",
        .statusDaemonTakenOver: "  übernommen: {count}",
        .statusDaemonQuarantined: "  in Quarantäne: {entry}",
        .statusDaemonFailed: "  abgelehnt: {id} an {target}: {reason}",
        .unexpectedArgument: "unerwartetes Argument {argument}",
        .loginHelp: """
        Aufruf: share login --server URL --user NAME [--password-stdin] [--allow-insecure-http] [--json]

        Meldet bei einem Server an. Die neue Sitzung (die Eltern-Sitzung, an den
        Schlüssel dieses Geräts gebunden) wird für share-daemon im Schlüsselbund
        abgelegt, und die Kind-Sitzung, die share send benutzt, wird sofort angelegt:
        share send funktioniert also gleich nach der Anmeldung, auch ohne Daemon;
        share-daemon hält sie danach am Leben. Das Konto wird das aktuelle, der
        Standard jedes share-Befehls, und ein laufender share-daemon bedient es von da
        an. Konten bei anderen Servern bleiben (`share accounts` listet sie auf,
        `share accounts use SERVER` wechselt zurück); das Konto einer anderen Person
        beim selben Server wird ersetzt.

        Optionen:
          --server URL      der Server, https://host[:port]; http:// nur für diesen
                            Rechner, wörtlich geschrieben (localhost, 127.x.y.z ohne
                            führende Nullen, [::1]).
          --user NAME       der Benutzername.
          --password-stdin  das Passwort aus der ersten Zeile der Standardeingabe lesen,
                            statt auf dem Terminal zu fragen (dort ohne Echo).
          --allow-insecure-http
                            http:// zu einem anderen Rechner erlauben: das Passwort und
                            jedes Token gehen dann im Klartext über das Netz. Für
                            Testnetze.
          --json            das Ergebnis als ein JSON-Objekt auf stdout ausgeben.

        Ausgabe: `angemeldet als NAME bei URL`; mit --json ein Objekt
        {"status": "logged_in", "server", "user", "session_id"}. Das Passwort und die
        Tokens werden nie ausgegeben.

        Exit-Codes:
          0   angemeldet
          1   Fehler: falscher Benutzername oder falsches Passwort, der Server ist nicht
              erreichbar oder lehnt ab, kein Terminal zum Fragen (nimm
              --password-stdin), ein Fehler des Schlüsselbunds
          2   ungültige Befehlszeile (ein --server, der nicht http(s)://host[:port] ist,
              oder http:// zu einem anderen Rechner ohne --allow-insecure-http)

        """,
        .serverRequired: "--server URL fehlt",
        .serverForm: "--server muss http(s)://host[:port] sein, nicht \"{server}\"",
        .insecureServer: """
        {origin} ist unverschlüsseltes http zu einem anderen Rechner: das Passwort ginge im Klartext über \
        das Netz. Nimm https://, oder --allow-insecure-http in einem Netz, dem du vertraust
        """,
        .userRequired: "--user NAME fehlt",
        .passwordPrompt: "Passwort für {user} bei {origin}: ",
        .passwordEmpty: "das Passwort ist leer",
        .loggedInCannotRecord: "angemeldet, aber das kann für die anderen Programme nicht festgehalten werden: {error}",
        .noChildYet: "noch keine Sitzung für share send ({reason}); share-daemon legt sie an, wenn er läuft",
        .loggedIn: "angemeldet als {user} bei {origin}",
        .wrongCredentials: "falscher Benutzername oder falsches Passwort für {user} bei {origin}",
        .cannotReach: "{origin} ist gerade nicht erreichbar ({reason}); versuche es später noch einmal",
        .loginRefused: "Anmeldung bei {origin} nicht möglich: {reason}; auf diesem Gerät wurde nichts geändert",
        .loginIncomplete: "die Anmeldung bei {origin} wurde nicht abgeschlossen: {reason}",
        .logoutHelp: """
        Aufruf: share logout [--server URL | --all] [--json]

        Meldet von einem Konto ab (dem aktuellen, oder dem bei --server): bittet den
        Server, die Sitzung zu beenden (das beendet auch die Kind-Sitzung von share),
        und löscht dann auf diesem Gerät die Tokens beider Sitzungen, die letzten
        Ziele und die Limits dieses Kontos und das Konto. Ist der Server nicht
        erreichbar, werden die Tokens hier trotzdem gelöscht; der Server beendet die
        Sitzung dann, wenn sie abläuft. Die Konten bei anderen Servern bleiben, und
        die Ausgabe nennt sie; nach dem Abmelden vom aktuellen Konto ist keines das
        aktuelle, bis `share accounts use SERVER` oder `share login` eines wählt.
        Ein laufender share-daemon folgt sofort.

        Was im Teilen-Eingang wartet, bleibt dort und wird nach der nächsten Anmeldung
        gesendet.

        Optionen:
          --server URL  der Server, von dem abgemeldet wird (Standard: der des
                        aktuellen Kontos).
          --all         von jedem Konto auf diesem Gerät abmelden: jede Sitzung wird
                        bei ihrem Server beendet, wo er erreichbar ist, und hier
                        gelöscht, wo nicht; die Ausgabe sagt für jeden Server, was
                        geschah.
          --json        das Ergebnis als ein JSON-Objekt auf stdout ausgeben:
                        {"status": "logged_out", "server", "server_result":
                        "revoked"|"already_ended"|"unreachable"|"failed"|"not_logged_in",
                        "deleted": [...], "errors": [...], "remaining_accounts":
                        [{"server", "user"}]}; mit --all {"status", "accounts":
                        [{"server", "user", "server_result", "deleted", "errors"}],
                        "errors"}.

        Exit-Codes:
          0   hier abgemeldet (auch wenn der Server nicht benachrichtigt werden konnte)
          1   etwas konnte auf diesem Gerät nicht gelöscht werden (die Meldung sagt, was)
          2   ungültige Befehlszeile

        """,
        .logoutNoServer: "kein Server festgehalten: nicht angemeldet",
        .logoutWhatRecents: "die letzten Ziele",
        .logoutWhatLimits: "die Limits des Servers",
        .logoutWhatAccount: "das Konto",
        .logoutCannotSetUp: "der Client für {origin} kann nicht eingerichtet werden: {error}",
        .logoutRevoked: "der Server {origin} hat die Sitzung und ihre Kind-Sitzungen beendet",
        .logoutNoSession: "für {origin} war keine Sitzung gespeichert",
        .logoutAlreadyEnded: "die Sitzung bei {origin} war schon beendet ({reason})",
        .logoutUnreachable: """
        der Server {origin} war nicht erreichbar ({reason}): er wurde nicht benachrichtigt; dort endet die \
        Sitzung, wenn sie abläuft
        """,
        .logoutNotEnded:
            "der Server {origin} hat die Sitzung nicht beendet ({reason}); die Tokens werden trotzdem gelöscht",
        .logoutCannotDeleteTokens: "die Tokens der Sitzung {role} können nicht gelöscht werden: {error}",
        .logoutDeletedTokens: "die Tokens beider Sitzungen wurden aus dem Schlüsselbund gelöscht",
        .logoutCannotDelete: "{what} kann nicht gelöscht werden: {error}",
        .logoutDeletedRest: "die letzten Ziele, die Limits des Servers und das Konto wurden gelöscht",
        .loggedOut: "abgemeldet",
        .notifyHelp: """
        Aufruf: share notify --payload DATEI|- [--print] [--json] [--no-wait]

        Stellt eine Push-Payload dar (docs/protocol.md "Push": aps und b mit v, nid, k,
        i, t, m), wie es die Benachrichtigungs-Erweiterung tut: innerhalb von
        client.push.fetch_timeout holt es die Vorschau mit dem Vorschau-Token der
        Push-Registrierung und zeigt Namen und Auszug, soweit notify.preview_mode es
        erlaubt. Im Modus none holt es nichts und zeigt den Platzhalter; ist die
        Nachricht weg, zeigt es "Nachricht nicht verfügbar"; kommt keine Antwort
        rechtzeitig, bleibt der Platzhalter. Eine Payload, deren b.v nicht 1 ist, wird
        gezeigt, wie sie kam.

        Standardmäßig wird das Ergebnis als Desktop-Benachrichtigung mit notify-send
        gezeigt (über einen Hinweis pro Thread gruppiert, das Badge als Hinweis);
        SHAREKIT_NOTIFY_COMMAND nennt ein anderes Programm mit denselben Argumenten.
        aps.interruption-level legt die Dringlichkeit fest (passive: niedrig, active:
        normal, time-sensitive und critical: kritisch); aps.sound verlangt den
        Nachrichtenton des Desktops, kein Ton (oder passive) keinen. Bringt die
        Vorschau den Weblink der Nachricht mit (auf dem Server, von dem die Vorschau
        kam, http oder https), bietet die Benachrichtigung ihn als Standardaktion an:
        share notify wartet, bis die Benachrichtigung angeklickt wird, und öffnet dann
        den Link mit xdg-open (SHAREKIT_OPEN_COMMAND nennt ein anderes Programm), oder
        bis sie geschlossen wird.

        Optionen:
          --payload DATEI  das JSON der Payload, oder - für die Standardeingabe.
          --print          stattdessen Titel und Text ausgeben (zwei Zeilen).
          --json           stattdessen ein JSON-Objekt ausgeben: {"title", "body",
                           "thread_id", "placeholder": true|false, "outcome":
                           "preview"|"not_available"|"placeholder"|"unchanged", "kind",
                           "nid", "badge", "urgency": "low"|"normal"|"critical", "sound",
                           "link", "failure"}.
          --no-wait        die Benachrichtigung ohne ihre Standardaktion zeigen und
                           sofort zurückkehren.

        Texte folgen LC_ALL, LC_MESSAGES, LANG und LANGUAGE (Englisch und Deutsch).

        Exit-Codes:
          0   dargestellt (und gezeigt, außer mit --print oder --json)
          1   die Payload kann nicht gelesen werden oder ihr fehlt ein nötiges Element,
              die Benachrichtigung konnte nicht gezeigt oder ihr Link nicht geöffnet
              werden
          2   ungültige Befehlszeile

        """,
        .cannotReadPayload: "die Payload-Datei {file} kann nicht gelesen werden",
        .pushRemoved: "die Push-Registrierung wurde entfernt",
        .pushRemovedHere: "die Push-Registrierung wurde hier entfernt (der Server wurde nicht benachrichtigt: {error})",
        .pushCannotDelete: "die Push-Registrierung kann nicht aus dem Schlüsselbund gelöscht werden: {error}",
        .targetsHelp: """
        Aufruf: share targets [--search SUCHE] [--limit N] [--json] [--server URL]

        Ohne --search: die letzten Ziele des Kontos beim Server, die neuesten zuerst
        (die Ziele seiner letzten erfolgreichen Teilungen; sie funktionieren offline;
        die Ziele anderer Server nie). Mit --search: die Threads
        und Kanäle, deren Namen mit SUCHE beginnen oder sie enthalten, ohne Rücksicht
        auf Groß- und Kleinschreibung und Akzente; nur Ziele mit Schreibrecht; ein
        Forum-Kanal wird als neuer Beitrag angeboten.

        Jede Zeile zeigt den Anzeigepfad und den Verweis für `share send --to`.
        --json gibt ein Array von {"kind", "id", "display_path"} aus.

        Exit-Codes: 0 aufgelistet (vielleicht nichts), 1 der Server kann nicht gefragt
        werden (nur bei der Suche), 2 ungültige Befehlszeile.

        """,
        .limitPositive: "--limit muss eine positive Zahl sein",
        .cannotSearch: "in {origin} kann nicht gesucht werden: {error}",
        .noRecentTargets: "noch keine letzten Ziele: suche mit `share targets --search NAME`",
        .noWritableMatch: "kein beschreibbares Ziel passt",
        .desktopEntryHelp: """
        Aufruf: share desktop-entry [--install [--json]]

        Gibt den freedesktop-Starter aus, der ShareKit im Anwendungsmenü, in "Öffnen
        mit" von Dateimanagern und für auf seinen Starter gezogene Links anbietet (die
        Datei contrib/desktop/sharekit.desktop ist dieser Text). Er ruft
        `share send --desktop %U` auf: Dateien, Weblinks (https://...) und die Links
        einer *.uri-list-Datei werden zu den Elementen des geteilten Inhalts; auf
        einer Anzeige mit installiertem share-sheet öffnet sich das Teilen-Fenster
        (aus dem Menü: mit dem Text der Zwischenablage).
        --install schreibt ihn nach $XDG_DATA_HOME/applications (sonst
        ~/.local/share/applications) und aktualisiert den MIME-Cache dieses
        Ordners mit update-desktop-database, damit "Öffnen mit" ShareKit sofort
        anbietet.

        Exit-Codes: 0 ausgegeben oder installiert, 1 der Starter konnte nicht
        geschrieben werden, 2 ungültige Befehlszeile.

        """,
        .desktopEntryNoArguments: "nimmt keine Argumente; es gibt contrib/desktop/sharekit.desktop aus",
        .desktopEntryInstalled: "Starter installiert: {path}",
        .desktopEntryCannotInstall: "kann den Starter {path} nicht schreiben: {error}",
        .desktopEntryNoDataHome: "weder XDG_DATA_HOME noch HOME ist ein absoluter Pfad: kein Ort für den Starter",
        .desktopEntryNoMimeCache: """
        update-desktop-database (desktop-file-utils) lief nicht: Dateimanager bieten ShareKit in \
        "Öffnen mit" vielleicht erst nach ihrem nächsten Durchsuchen an
        """,
        .desktopHowToShare: """
        Nichts wurde geteilt: kein Terminal und keine Auswahl, um zu fragen, wohin es gehen soll. Rufe in \
        einem Terminal `share send DATEI` auf, um ein Ziel zu wählen, oder `share send DATEI --to ZIEL` \
        (`share targets` listet sie auf).
        """,
        .notifyNotShared: "ShareKit: nicht geteilt",
        .notifyCancelled: "ShareKit: abgebrochen",
        .notifyNothingShared: "Nichts wurde geteilt.",
        .notifyQueued: "ShareKit: eingereiht",
        .notifyShared: "ShareKit: geteilt",
        .notifyNotSentYet: "ShareKit: noch nicht gesendet",
        .notifySentTo: "gesendet an {path}: Nachricht {message}",
        .chooserQuestion: "{items|1 Element|# Elemente} teilen an:",
        .chooserReference: "Verweis",
        .chooserTarget: "Ziel",
        .notifySentToAgain: "gesendet an {path}: Nachricht {message} (sie war schon zugestellt)",
        .desktopListNamesFile:
            "{list}: eine Liste von Links wird nur als ihre Links geteilt, und sie nennt eine lokale Datei "
            + "({uri}); nichts wurde geteilt (teile die Datei selbst, wenn du das willst)",
        .completionsHelp: """
        Aufruf: share completions bash|zsh|fish

        Gibt ein Skript zur Vervollständigung für die Shell aus, erzeugt aus denselben
        Deklarationen der Optionen wie der Parser von share:

          source <(share completions bash)          # bash, oder speichern unter
                                                    # ~/.local/share/bash-completion/completions/share
          share completions zsh > ~/.zfunc/_share    # zsh, mit ~/.zfunc in $fpath
          share completions fish > ~/.config/fish/completions/share.fish

        Außer Befehlen, Optionen und Dateinamen vervollständigt Tab den Wert von
        --to mit den letzten Zielen des angemeldeten Kontos (thread:t1,
        channel:c2) und die ID von share inbox show|retry|drop mit den IDs, die
        share inbox list zeigt; share liest sie bei jedem Tab auf diesem Rechner,
        nie vom Server.

        Die Beschreibungen im Skript sind englisch, wie die CLI-Referenz.

        Exit-Codes: 0 ausgegeben, 2 keine solche Shell.

        """,
        .referenceHelp: """
        Aufruf: share reference

        Gibt die CLI-Referenz in Markdown aus (jeder Befehl mit Aufruf und Optionen),
        erzeugt aus denselben Deklarationen wie der Parser; die "CLI reference" in
        README.md ist dieser Text (tools/cli-docs schreibt ihn dorthin). Sie ist
        immer englisch.

        Exit-Codes: 0 ausgegeben, 2 ungültige Befehlszeile.

        """,
        .programSummary: "Text, Links und Dateien in einen Chat-Thread oder -Kanal teilen",
        .manpageHelp: """
        Aufruf: share manpage

        Gibt die Handbuchseite von share aus (roff), erzeugt aus denselben Hilfetexten
        wie --help, immer auf Englisch; tools/cli-docs schreibt sie nach
        contrib/man/share.1.

        """,
        .takesNoArguments: "nimmt keine Argumente",
        .nameOneShell: "nenne eine Shell: bash, zsh oder fish{suggestion}",
        .completeUnknownKind: "'{kind}' vervollständigt share nicht; nenne eines von: {kinds}",
        .summarySend: "Dateien, Links oder Text an ein Ziel teilen",
        .summaryInbox: """
        wartende Inhalte im Teilen-Eingang oder im Ausgang des Daemons auflisten, zeigen, erneut senden \
        oder verwerfen
        """,
        .summaryLogin: "bei einem Server anmelden (legt die Eltern- und die Kind-Sitzung an)",
        .summaryLogout: "abmelden und alle Tokens löschen",
        .summaryStatus: "Sitzungen, Daemon und Ausgang zeigen",
        .summaryTargets: "letzte Ziele auflisten oder nach einem suchen",
        .summaryDesktopEntry: "den freedesktop-Starter ausgeben",
        .summaryNotify: "eine Push-Payload als Benachrichtigung darstellen",
        .summaryDebug: "Hilfen zur Fehlersuche: dpop-proof, jwk, get",
        .summaryManpage: "die Handbuchseite dieses Programms ausgeben (roff; contrib/man/share.1)",
        .summaryCompletions: "ein Skript zur Shell-Vervollständigung ausgeben",
        .summaryReference: "die CLI-Referenz ausgeben (Markdown; die CLI-Referenz in README.md)",
        .interruptedMayBeOnServer: """
        unterbrochen; die Nachricht kann schon auf dem Server sein; der Inhalt wurde für share-daemon \
        behalten, der ihn fertigstellt, ohne doppelt zu senden (Eintrag {id} im Teilen-Eingang)
        """,
        .waitingForAnswer: """
        unterbrochen, nachdem die Nachricht an den Server ging; warte bis zu {seconds} s auf seine Antwort \
        (ein zweites Strg-C wartet nicht länger)
        """,
        .sentDespiteInterrupt: "unterbrochen, aber der Server hatte die Nachricht schon gespeichert",
        .summaryAccounts: "die Konten auf diesem Gerät auflisten oder das aktuelle wählen",
        .accountsHelp: """
        Aufruf: share accounts [list] [--json]
                share accounts use SERVER [--json]

        Jedes Konto auf diesem Gerät: der Server, der dort angemeldete Benutzername,
        welches das aktuelle ist (mit * markiert) und ob seine Sitzung noch gilt. Dieses
        Gerät hält ein Konto pro Server; `share login` fügt eines hinzu (oder ersetzt
        das beim selben Server) und macht es zum aktuellen, `share logout` beendet das
        aktuelle (oder das von --server), `share logout --all` beendet alle.

        Das aktuelle Konto ist der Standard jedes Befehls: `share send` sendet damit,
        die Auswahl und `share targets` zeigen seine letzten Ziele, und share-daemon
        bedient es (einem Wechsel folgt er sofort). Geteiltes geht immer an den Server,
        für den es gemacht wurde, mit dem Konto dort.

        use SERVER  das Konto bei SERVER zum aktuellen machen.
        --json      ein JSON-Objekt auf stdout ausgeben: list: {"current", "accounts":
                    [{"server", "user", "current", "session":
                    "ok"|"expired"|"none"|"unreadable", "refresh_expires_at"}]};
                    use: {"status": "switched", "server", "user", "session"}.

        Nur der Schlüsselbund wird gelesen: kein Server wird gefragt, und kein Token
        wird ausgegeben.

        Exit-Codes:
          0   aufgelistet oder gewechselt
          1   kein Konto bei SERVER auf diesem Gerät, oder der Schlüsselbund kann nicht
              gelesen werden
          2   ungültige Befehlszeile

        """,
        .accountsUseNeedsServer: "share accounts use braucht den SERVER eines Kontos (`share accounts` listet sie auf)",
        .accountsNone: "keine Konten auf diesem Gerät: melde dich mit `share login --server URL --user NAME` an",
        .accountsLine: "{server}  {user}  {session}",
        .accountsSessionUntil: "angemeldet (Refresh-Token läuft ab: {time})",
        .accountsSessionExpired: "Sitzung abgelaufen ({time}): melde dich mit `share login` neu an",
        .accountsSessionNone: "nicht angemeldet: melde dich mit `share login` an",
        .accountsNoneCurrent: "kein Konto ist das aktuelle: `share accounts use SERVER` wählt eines",
        .accountsNoAccount: """
        kein Konto für {server} auf diesem Gerät: `share login --server {server} --user NAME` fügt eines \
        hinzu (`share accounts` listet sie auf)
        """,
        .accountsNowUsing: "jetzt aktuell: {user} bei {server}",
        .accountAt: "{user} bei {server}",
        .noCurrentAccount: """
        kein aktuelles Konto: wähle eines mit `share accounts use SERVER` (`share accounts` listet sie auf), \
        oder gib --server URL an
        """,
        .logoutAllOrServer: "--all meldet von jedem Konto ab: es nimmt kein --server",
        .logoutNoAccounts: "kein Konto auf diesem Gerät: von nichts abzumelden",
        .logoutAccountHeading: "{server} ({user}):",
        .loggedOutOfOne: "von 1 Konto abgemeldet",
        .loggedOutOfAll: "von {count} Konten abgemeldet",
        .logoutOthersStay: """
        die Konten bei anderen Servern bleiben: {accounts}; `share accounts use SERVER` macht eines zum \
        aktuellen Konto
        """,
        .logoutCurrentStays: "das aktuelle Konto ist weiterhin das bei {server}",
        .statusOtherAccounts: "weitere Konten auf diesem Gerät: {count} (`share accounts` listet sie auf)",
        .statusDaemonServes: "  bedient {user} bei {server}",
        .statusDaemonServesServer: "  bedient {server}",
        .statusDaemonServesNone: "  bedient kein Konto: er wartet auf `share login` oder `share accounts use SERVER`",
        .statusDaemonLastReached: "  zuletzt beim Server: {time}",
        .statusDaemonNotReached: "  hat den Server noch nicht erreicht",
        .statusDaemonNotCurrent:
            "  (das aktuelle Konto ist bei {server}: der Daemon folgt bei seinem nächsten Durchlauf)",
        .retryOtherServer: """
        {id} wurde für {server} gemacht und geht nur dorthin (sein Ziel ist ein Ort auf diesem Server); \
        lass --server weg, oder melde dich zuerst mit `share login --server {server}` an
        """,
        .accountsServerForm:
            "SERVER muss http(s)://host[:port] sein, wie `share accounts` es auflistet, nicht \"{server}\"",
        .progressTimeLeft: "noch {time}",
        .sentToTerminal: "gesendet an {path}: Nachricht {message}",
        .sentToAgainTerminal: "gesendet an {path}: Nachricht {message} (sie war schon zugestellt)",
        .undoWindowRange: "--undo-window muss eine Zahl von Sekunden von 0 (keine Wartezeit) bis {maximum} sein",
        .interruptedUndo: """
        unterbrochen; der Inhalt wurde als {id} behalten: share-daemon sendet ihn in {seconds} s an {path}, \
        außer du nimmst ihn vorher zurück mit: share inbox drop {id}
        """,
        .interruptedMayBeOnServerUndo: """
        unterbrochen, nachdem die Nachricht gesendet war und bevor der Server antwortete: sie kann schon \
        in {path} sein. Der Inhalt wurde als {id} behalten; in {seconds} s stellt share-daemon ihn fertig, \
        ohne doppelt zu senden. share inbox drop {id} hält das auf, kann aber keine Nachricht zurücknehmen, \
        die der Server schon hat
        """,
        .stateUndoWindow: """
        unterbrochen; share-daemon darf ihn in {wait} senden (share inbox drop {id} nimmt ihn zurück)
        """,
        .droppedMayBeOnServer: """
        verworfen: {id}; aber seine Nachricht kann schon auf dem Server sein (ein Versuch hat sie \
        angefragt, und keine Antwort kam): sieh in {path} nach. Verwerfen hält ShareKit auf, nicht den Server
        """,
        .sheetHelp: """
        Aufruf: share-sheet [DATEI|URL ...]
                share-sheet --text TEXT
                share-sheet --clipboard | --selection

        Öffnet das Teilen-Fenster: es teilt Dateien, Links und Text in einen Thread
        oder Kanal, wie `share send` (derselbe Teilen-Eingang, dieselbe Zustellung,
        share-daemon sendet, was das Fenster nicht kann).

          DATEI|URL      Dateien zum Anhängen, Links für den Nachrichtentext.
          --text TEXT    zu teilender Text (wiederholbar).
          --clipboard    den Text der Zwischenablage teilen.
          --selection    den markierten Text teilen (die primäre Auswahl).
          --help         diese Hilfe zeigen.

        Tasten: tippen sucht; Pfeil runter und hoch wählen unter den Zielen; Enter
        nimmt das gewählte; Tab erreicht den Kommentar; Strg+Enter sendet; Escape
        bricht ab und behält nichts. Braucht eine Anzeige (X11 oder Wayland).
        """,
        .sheetTitle: "Teilen",
        .sheetCancel: "Abbrechen",
        .sheetSend: "Senden",
        .sheetSearch: "Suchen",
        .sheetSearchHint: "Threads und Kanäle suchen",
        .sheetComment: "Kommentar",
        .sheetCommentHint: "Kommentar hinzufügen",
        .sheetRecent: "Zuletzt",
        .sheetMatches: "Treffer für „{query}“",
        .sheetNoMatch: "Kein beschreibbarer Thread oder Kanal passt.",
        .sheetNoRecent: "Noch keine letzten Ziele: suche einen Thread oder Kanal.",
        .sheetChooseTarget: "Wähle, wohin geteilt wird.",
        .sheetTargetChosen: "An {path}",
        .sheetNewPost: "Neuer Beitrag in {path}",
        .sheetSending: "Wird an {path} gesendet ...",
        .sheetProgress: "{name}: {done} von {total}, {rate}/s",
        .sheetSent: "An {path} gesendet.",
        .sheetKeptForDaemon: "Noch nicht gesendet: share-daemon sendet es an {path}.",
        .sheetNoAccount: "Noch kein Konto: melde dich an, um zu teilen.",
        .sheetServer: "Server",
        .sheetUser: "Benutzer",
        .sheetPassword: "Passwort",
        .sheetLogIn: "Anmelden",
        .sheetLoggingIn: "Anmeldung läuft ...",
        .sheetNoDisplay: """
        keine Anzeige: share-sheet braucht X11 oder Wayland (DISPLAY oder WAYLAND_DISPLAY); nimm `share send` \
        im Terminal
        """,
        .sheetEmptyClipboard: "In der Zwischenablage oder der Auswahl ist kein Text zum Teilen.",
        .sheetUnknownOption: "share-sheet: unbekannte Option {option}; siehe share-sheet --help",
    ]

    /// Texts that are rightly the same in German.
    static let sameInEveryLanguage: Set<CLIText> = [
        .previewText, .previewLink, .accountsLine, .logoutAccountHeading, .sheetServer,
    ]
}
