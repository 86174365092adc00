extension AppSupportText {
    /// The English texts.
    static let english: [AppSupportText: String] = [
        .takesNoValue: "{option} takes no value",
        .needsValue: "{option} needs a value",
        .unknownOption: "unknown option {option}{suggestion}",
        .required: "{option} is required",
        .didYouMean: "; did you mean '{word}'?",
        .helpUsage: "Usage: {program} <command> [options]\n       {program} --help | --version",
        .helpCommands: "Commands",
        .helpMore: "Run '{program} <command> --help' or '{program} help <command>' for a command's options.",
        .exitCodes: "Exit codes",
        .exitSuccess: "success",
        .exitFailure: "failure (the message says why)",
        .exitUsage: "invalid command line",
        .exitQueued: "kept in the share inbox; the daemon will send it",
        .exitRejected: "refused by the server or a limit; nothing was kept",
        .exitCancelled: "interrupted (SIGINT)",
        .exitUnavailable: "command not available in this build",
        .unknownCommand: "{program}: unknown command '{name}'{suggestion}; run '{program} --help' for the list",
        .helpTooManyWords: "{program} help: too many words; run '{program} help COMMAND [SUBCOMMAND]'",
        .helpNoSubcommand:
            "{program} help: '{name}' has no subcommand '{sub}'{suggestion}; run '{program} help {name}'",
        .notYetAvailableSummary: "{summary} [not yet available]",
        .notYetAvailable: "{program} {name}: not available in this build of ShareKit {version}",
    ]
}
