extension AppSupportText {
    /// The German texts.
    static let german: [AppSupportText: String] = [
        .takesNoValue: "{option} nimmt keinen Wert",
        .needsValue: "{option} braucht einen Wert",
        .unknownOption: "unbekannte Option {option}{suggestion}",
        .required: "{option} fehlt",
        .didYouMean: "; meintest du '{word}'?",
        .helpUsage: "Aufruf: {program} <Befehl> [Optionen]\n        {program} --help | --version",
        .helpCommands: "Befehle",
        .helpMore: "'{program} <Befehl> --help' oder '{program} help <Befehl>' zeigt die Optionen eines Befehls.",
        .exitCodes: "Exit-Codes",
        .exitSuccess: "Erfolg",
        .exitFailure: "Fehler (die Meldung sagt, warum)",
        .exitUsage: "ungültige Befehlszeile",
        .exitQueued: "im Teilen-Eingang behalten; der Daemon sendet den Inhalt",
        .exitRejected: "vom Server oder einem Limit abgelehnt; nichts wurde behalten",
        .exitCancelled: "unterbrochen (SIGINT)",
        .exitUnavailable: "Befehl in diesem Build nicht verfügbar",
        .unknownCommand:
            "{program}: unbekannter Befehl '{name}'{suggestion}; '{program} --help' zeigt die Liste",
        .helpTooManyWords: "{program} help: zu viele Wörter; '{program} help BEFEHL [UNTERBEFEHL]' aufrufen",
        .helpNoSubcommand:
            "{program} help: '{name}' hat keinen Unterbefehl '{sub}'{suggestion}; '{program} help {name}' aufrufen",
        .notYetAvailableSummary: "{summary} [noch nicht verfügbar]",
        .notYetAvailable: "{program} {name}: in diesem Build von ShareKit {version} nicht verfügbar",
    ]
}
