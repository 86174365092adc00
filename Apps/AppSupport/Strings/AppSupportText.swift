public import ShareKitCore

/// The texts of AppSupport: the help frame every program shares (usage,
/// commands, exit codes) and the parser's usage errors. English in
/// ``english``, German in ``german``; see `StringTable` for how to add one.
public enum AppSupportText: String, StringTableKey {
    case takesNoValue = "usage.takes_no_value"
    case needsValue = "usage.needs_value"
    case unknownOption = "usage.unknown_option"
    case required = "usage.required"
    case didYouMean = "usage.did_you_mean"
    case helpUsage = "help.usage"
    case helpCommands = "help.commands"
    case helpMore = "help.more"
    case exitCodes = "help.exit_codes"
    case exitSuccess = "exit.success"
    case exitFailure = "exit.failure"
    case exitUsage = "exit.usage"
    case exitQueued = "exit.queued"
    case exitRejected = "exit.rejected"
    case exitCancelled = "exit.cancelled"
    case exitUnavailable = "exit.unavailable"
    case unknownCommand = "command.unknown"
    case helpTooManyWords = "help.too_many_words"
    case helpNoSubcommand = "help.no_subcommand"
    case notYetAvailableSummary = "command.not_yet_available_summary"
    case notYetAvailable = "command.not_yet_available"

    /// The table.
    public static let table = StringTable<AppSupportText>(
        english: english, german: german, sameInEveryLanguage: [])

    /// The text of `key` in the current language.
    static func text(_ key: AppSupportText, _ arguments: [String: any PlaceholderArgument] = [:]) -> String {
        table.text(key, arguments)
    }

    /// The text of `key` in every language.
    static func localized(_ key: AppSupportText, _ arguments: [String: any PlaceholderArgument] = [:])
        -> LocalizedText
    {
        table.localized(key, arguments)
    }
}
