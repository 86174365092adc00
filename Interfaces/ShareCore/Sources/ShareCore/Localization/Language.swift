import Foundation

/// A language ShareKit's string tables are written in.
///
/// English is the language of the sources and of every contract: `--json`
/// output, the lines scripts parse, logs, manifests and the reasons kept in
/// them. German is complete for every text a person reads. Which one a
/// person gets is chosen from the environment (``chosen(environment:)``),
/// never from `setlocale`, so it works where the locale is not generated on
/// the machine.
public enum Language: String, CaseIterable, Sendable {
    /// English, the fallback for every locale the tables do not have.
    case english = "en"
    /// German.
    case german = "de"

    /// The language texts for a person are written in now: the override of
    /// the task (``withLanguage(_:_:)``: a manual page, a test), else the
    /// one this process's environment chose.
    public static var current: Language { override ?? process }

    /// The language this process's environment chose, read once.
    public static let process = chosen(environment: ProcessInfo.processInfo.environment)

    /// A language set for the work of one task and the tasks it starts.
    @TaskLocal static var override: Language?

    /// Runs `body` with ``current`` set to `language`: what must be English
    /// whatever the person reads (the manual pages and the CLI reference
    /// the repository ships), or a test of one language.
    /// - Parameters:
    ///   - language: the language.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public static func withLanguage<T>(_ language: Language, _ body: () throws -> T) rethrows -> T {
        try $override.withValue(language, operation: body)
    }

    /// The async variant of ``withLanguage(_:_:)``.
    /// - Parameters:
    ///   - language: the language.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public static func withLanguage<T>(
        _ language: Language, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await $override.withValue(language, operation: body, isolation: isolation)
    }

    /// The language of the messages an environment asks for, the way GNU
    /// gettext chooses it:
    ///
    /// 1. The locale of messages is the first of `LC_ALL`, `LC_MESSAGES`
    ///    and `LANG` that is set and not empty (POSIX order).
    /// 2. None, or the `C` or `POSIX` locale (also `C.UTF-8`): English, and
    ///    `LANGUAGE` is not looked at.
    /// 3. Otherwise `LANGUAGE`, a list such as `de_AT:de:en`, when set and
    ///    not empty: its first entry the tables have; when it names none of
    ///    them, English (the untranslated texts, as gettext does).
    /// 4. Otherwise the locale's language (`de_DE.UTF-8` is German),
    ///    English when the tables do not have it.
    ///
    /// Only names are read: whether the locale is generated on the machine
    /// does not matter.
    /// - Parameter environment: the environment variables.
    /// - Returns: the language.
    public static func chosen(environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, !isCLocale(locale) else { return .english }
        if let list = environment["LANGUAGE"], !list.isEmpty {
            for entry in list.split(separator: ":") where !entry.isEmpty {
                if isCLocale(String(entry)) { return .english }
                if let language = Language(localeName: String(entry)) { return language }
            }
            return .english
        }
        return Language(localeName: locale) ?? .english
    }

    /// The language of a locale name (`de`, `de_DE.UTF-8`, `de_CH@euro`,
    /// `en-GB`), or nil when the tables do not have it.
    /// - Parameter localeName: the name.
    public init?(localeName: String) {
        let code = localeName.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }.lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self = language
    }

    /// Whether a locale name is the C or POSIX locale, with or without a codeset.
    private static func isCLocale(_ name: String) -> Bool {
        let base = name.prefix { $0 != "." && $0 != "@" }
        return base == "C" || base == "POSIX"
    }
}
