public import ShareKitCore

/// The notifier's texts: one string table per language (English and
/// German, ``table``) and the language the environment asks for. No text a
/// person reads is a literal in code.
///
/// The language is chosen as every ShareKit text's is
/// (`Language.chosen(environment:)`): `LC_ALL`, else `LC_MESSAGES`, else
/// `LANG` (the first that is set and not empty), and GNU `LANGUAGE` unless
/// the locale is C or POSIX; `de_DE.UTF-8` picks German, anything the table
/// lacks English. Adding a text: a case of ``Key`` (its raw value is the key
/// a push payload may name, `aps.alert.loc-key`) and its English and German
/// texts in ``table``.
public struct PushStrings: Sendable {
    /// The table's keys.
    public enum Key: String, StringTableKey {
        case title = "PUSH_TITLE"
        case bodyMessage = "PUSH_BODY_MESSAGE"
        case bodyMention = "PUSH_BODY_MENTION"
        case bodyDM = "PUSH_BODY_DM"
        case bodyRunDone = "PUSH_BODY_RUN_DONE"
        case bodyRunFailed = "PUSH_BODY_RUN_FAILED"
        case bodyInputNeeded = "PUSH_BODY_INPUT_NEEDED"
        case bodySecurity = "PUSH_BODY_SECURITY"
        case bodyAdmin = "PUSH_BODY_ADMIN"
        case notAvailable = "PUSH_NOT_AVAILABLE"
        case titleSenderThread = "PUSH_TITLE_SENDER_THREAD"
        case titleSender = "PUSH_TITLE_SENDER"
        case bodyChannelExcerpt = "PUSH_BODY_CHANNEL_EXCERPT"
        case bodyChannel = "PUSH_BODY_CHANNEL"
        case actionOpen = "PUSH_ACTION_OPEN"
    }

    /// The notifier's table, English and German.
    public static let table = StringTable<Key>(
        english: [
            .title: "New notification",
            .bodyMessage: "New message",
            .bodyMention: "You were mentioned",
            .bodyDM: "New direct message",
            .bodyRunDone: "A run has finished",
            .bodyRunFailed: "A run has failed",
            .bodyInputNeeded: "Your input is needed",
            .bodySecurity: "Security notice",
            .bodyAdmin: "Administrative notice",
            .notAvailable: "Message not available",
            .titleSenderThread: "{sender} · {thread}",
            .titleSender: "{sender}",
            .bodyChannelExcerpt: "{channel}: {excerpt}",
            .bodyChannel: "New message in {channel}",
            .actionOpen: "Open",
        ],
        german: [
            .title: "Neue Benachrichtigung",
            .bodyMessage: "Neue Nachricht",
            .bodyMention: "Du wurdest erwähnt",
            .bodyDM: "Neue Direktnachricht",
            .bodyRunDone: "Ein Lauf ist fertig",
            .bodyRunFailed: "Ein Lauf ist fehlgeschlagen",
            .bodyInputNeeded: "Deine Eingabe wird gebraucht",
            .bodySecurity: "Sicherheitshinweis",
            .bodyAdmin: "Administrativer Hinweis",
            .notAvailable: "Nachricht nicht verfügbar",
            .titleSenderThread: "{sender} · {thread}",
            .titleSender: "{sender}",
            .bodyChannelExcerpt: "{channel}: {excerpt}",
            .bodyChannel: "Neue Nachricht in {channel}",
            .actionOpen: "Öffnen",
        ],
        sameInEveryLanguage: [.titleSenderThread, .titleSender, .bodyChannelExcerpt])

    /// The language used when the environment names none the table has.
    public static let fallbackLanguage = Language.english.rawValue

    /// The chosen language (`en`, `de`).
    public var language: String { chosen.rawValue }
    private let chosen: Language

    /// Chooses the table's language for an environment.
    /// - Parameter environment: the process environment (`LC_ALL`, `LC_MESSAGES`, `LANG`, `LANGUAGE`).
    public init(environment: [String: String]) {
        chosen = Language.chosen(environment: environment)
    }

    /// The text of a key in the chosen language.
    public func text(_ key: Key) -> String { Self.table.text(key, in: chosen) }

    /// The text of a key the payload named (`aps.alert.loc-key`), nil when the table has no such key.
    public func text(named name: String) -> String? { Key(rawValue: name).map(text) }

    /// A format of the table with its `{name}` fields filled in; a value
    /// that contains `{thread}` is put in as it is, never read again.
    /// - Parameters:
    ///   - key: the format's key.
    ///   - fields: the values by field name.
    public func format(_ key: Key, _ fields: [String: String]) -> String {
        Self.table.text(key, fields, in: chosen)
    }

    /// The placeholder body of a push kind (`b.k`); unknown kinds use the message text.
    public func placeholderBody(kind: String) -> String {
        switch kind {
        case "mention": return text(.bodyMention)
        case "dm": return text(.bodyDM)
        case "run_done": return text(.bodyRunDone)
        case "run_failed": return text(.bodyRunFailed)
        case "input_needed": return text(.bodyInputNeeded)
        case "security": return text(.bodySecurity)
        case "admin": return text(.bodyAdmin)
        default: return text(.bodyMessage)
        }
    }
}
