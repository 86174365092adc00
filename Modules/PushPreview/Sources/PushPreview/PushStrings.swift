import Foundation
import ServerAPIInterface

/// The notifier's texts: the one localized string table
/// (`Resources/PushStrings.json`, English and German) and the language the
/// environment asks for. No text a person reads is a literal in code.
///
/// The language follows POSIX: `LC_ALL`, else `LC_MESSAGES`, else `LANG`
/// (the first that is set and not empty); `de_DE.UTF-8` picks German,
/// anything the table lacks picks English.
public struct PushStrings: Sendable {
    /// The table's keys.
    public enum Key: String, Sendable, CaseIterable {
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

    /// The language used when the environment names none the table has.
    public static let fallbackLanguage = "en"

    /// The chosen language (`en`, `de`).
    public let language: String
    private let table: [String: String]
    private let fallback: [String: String]

    /// Loads the table for the environment's language.
    /// - Parameter environment: the process environment (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    public init(environment: [String: String]) {
        let tables = Self.tables
        let wanted = Self.language(environment: environment)
        language = tables[wanted] == nil ? Self.fallbackLanguage : wanted
        fallback = tables[Self.fallbackLanguage] ?? [:]
        table = tables[language] ?? fallback
    }

    /// The text of a key; the English text when the language lacks it, the key itself when both do.
    public func text(_ key: Key) -> String { table[key.rawValue] ?? fallback[key.rawValue] ?? key.rawValue }

    /// The text of a key the payload named (`aps.alert.loc-key`), nil when the table has no such key.
    public func text(named name: String) -> String? { table[name] ?? fallback[name] }

    /// A format string of the table with its `{name}` fields filled in.
    /// - Parameters:
    ///   - key: the format's key.
    ///   - fields: the values by field name.
    public func format(_ key: Key, _ fields: [String: String]) -> String {
        var result = text(key)
        // Filled one field at a time from the format's own text, so a
        // value that contains `{thread}` is never replaced again.
        var output = ""
        while let open = result.firstIndex(of: "{") {
            output += result[..<open]
            guard let close = result[open...].firstIndex(of: "}") else { break }
            let name = String(result[result.index(after: open)..<close])
            output += fields[name] ?? String(result[open...close])
            result = String(result[result.index(after: close)...])
        }
        return output + result
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

    /// The language code the environment asks for (`de` of `de_DE.UTF-8`).
    static func language(environment: [String: String]) -> String {
        let chosen = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let chosen else { return fallbackLanguage }
        let code = chosen.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }.lowercased()
        return code.isEmpty || code == "c" || code == "posix" ? fallbackLanguage : code
    }

    /// Every language's table, read once per process.
    private static let tables: [String: [String: String]] = {
        guard let url = Bundle.module.url(forResource: "PushStrings", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let object = try? APIJSON.decode([String: [String: String]].self, from: Array(data))
        else { return [:] }
        return object
    }()
}
