/// The keys of one owner's string table: an enum with a `String` raw value
/// per text, so the table can be checked key by key.
public protocol StringTableKey: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// A value for a placeholder of a text: words, or a number (which can also
/// choose a plural form).
public enum PlaceholderValue: Sendable, Equatable {
    /// Words, put in as they are (neutralise other users' words before).
    case text(String)
    /// A count.
    case number(Int64)

    /// The value as it is written into a text.
    var written: String {
        switch self {
        case .text(let text): return text
        case .number(let number): return String(number)
        }
    }
}

/// Something that can fill a placeholder: text or a whole number.
public protocol PlaceholderArgument: Sendable {
    /// The value.
    var placeholderValue: PlaceholderValue { get }
}

extension PlaceholderValue: PlaceholderArgument {
    /// Itself.
    public var placeholderValue: PlaceholderValue { self }
}

extension String: PlaceholderArgument {
    /// The text.
    public var placeholderValue: PlaceholderValue { .text(self) }
}

extension Substring: PlaceholderArgument {
    /// The text.
    public var placeholderValue: PlaceholderValue { .text(String(self)) }
}

extension Int: PlaceholderArgument {
    /// The number.
    public var placeholderValue: PlaceholderValue { .number(Int64(self)) }
}

extension Int64: PlaceholderArgument {
    /// The number.
    public var placeholderValue: PlaceholderValue { .number(self) }
}

extension Int32: PlaceholderArgument {
    /// The number.
    public var placeholderValue: PlaceholderValue { .number(Int64(self)) }
}

/// One owner's texts for a person, one table per language: the module or
/// app that writes a text owns it (ShareCLIKit its commands', AppSupport
/// the help frame's, an interface its errors').
///
/// A text is a template with named placeholders:
///
/// - `{path}` puts in the value of `path`;
/// - `{count|one entry|# entries}` chooses a plural form by the number
///   `count`: the first form for 1, the second for any other number, `#` in
///   a form standing for the number. English and German both have these
///   two forms. A placeholder used so is a number: the caller passes an
///   integer (a language may write the same number without a plural).
///
/// A `{` that does not begin such a placeholder (`{"status": …}` in a help
/// text) is written as it is. Every key has a text in every language, with
/// the same placeholders used the same way; ``problems`` lists what breaks
/// that rule, and each owner's test expects it to be empty.
///
/// Adding a text: add a case to the owner's key enum, its English text to
/// the English table and its German text to the German table, then use it
/// with ``text(_:_:in:)`` (or ``localized(_:_:)`` for a text that JSON or a
/// log also needs in English). The compiler finds a case used but not
/// declared; the owner's table test finds a text missing in a language or
/// with other placeholders.
public struct StringTable<Key: StringTableKey>: Sendable {
    private let tables: [Language: [Key: String]]
    /// Keys whose text is rightly the same in every language (a line that
    /// is only placeholders, a name); any other key with the English text
    /// in German is reported as untranslated.
    public let sameInEveryLanguage: Set<Key>

    /// Makes a table.
    /// - Parameters:
    ///   - english: the English texts by key.
    ///   - german: the German texts by key.
    ///   - sameInEveryLanguage: keys whose text is rightly the same in both.
    public init(english: [Key: String], german: [Key: String], sameInEveryLanguage: Set<Key> = []) {
        tables = [.english: english, .german: german]
        self.sameInEveryLanguage = sameInEveryLanguage
    }

    /// The text of `key` in `language` with its placeholders filled; the
    /// English text when the language lacks it, the key's name when both do
    /// (``problems`` reports either).
    /// - Parameters:
    ///   - key: the text's key.
    ///   - arguments: the placeholders' values by name.
    ///   - language: the language; the current one unless given.
    /// - Returns: the text.
    public func text(
        _ key: Key, _ arguments: [String: any PlaceholderArgument] = [:], in language: Language = .current
    ) -> String {
        let template = tables[language]?[key] ?? tables[.english]?[key] ?? key.rawValue
        let values = arguments.mapValues(\.placeholderValue)
        assert(
            Set(Template(template).placeholders.keys) == Set(values.keys),
            "\(key.rawValue): the arguments \(values.keys.sorted()) do not fill the placeholders of \"\(template)\"")
        return Template(template).render(values)
    }

    /// The text of `key` in any language, made when it is shown: a terminal
    /// gets the person's language, `--json` and logs get English.
    /// - Parameters:
    ///   - key: the text's key.
    ///   - arguments: the placeholders' values by name.
    /// - Returns: the text.
    public func localized(_ key: Key, _ arguments: [String: any PlaceholderArgument] = [:]) -> LocalizedText {
        let table = self
        let values = arguments.mapValues(\.placeholderValue)
        return LocalizedText { language in table.text(key, values, in: language) }
    }

    /// The values of the placeholders of `key` in a text written from its
    /// template in `language`, or nil when the text was not written from
    /// it: a reason kept in English (a manifest, the outbox, an error's
    /// message) recognised, so it can be shown in another language. Each
    /// placeholder takes the shortest text up to what follows it.
    /// - Parameters:
    ///   - key: the text's key.
    ///   - text: the text.
    ///   - language: the language it was written in; English unless given.
    /// - Returns: the placeholders' values by name, or nil.
    public func values(of key: Key, in text: String, language: Language = .english) -> [String: String]? {
        guard let template = tables[language]?[key] else { return nil }
        return Template(template).match(text)
    }

    /// What is wrong with the table: a key without a text in a language, a
    /// text with other placeholders than the English one, a plural that
    /// does not close or lacks a form, a German text left in English. Empty
    /// when the table is whole.
    public var problems: [String] {
        var found: [String] = []
        for key in Key.allCases {
            guard let english = tables[.english]?[key] else {
                found.append("\(key.rawValue): no English text")
                continue
            }
            let reference = Template(english)
            found += reference.errors.map { "\(key.rawValue) (en): \($0)" }
            for language in Language.allCases where language != .english {
                guard let translated = tables[language]?[key] else {
                    found.append("\(key.rawValue): no \(language.rawValue) text")
                    continue
                }
                let template = Template(translated)
                found += template.errors.map { "\(key.rawValue) (\(language.rawValue)): \($0)" }
                if Set(template.placeholders.keys) != Set(reference.placeholders.keys) {
                    found.append(
                        "\(key.rawValue) (\(language.rawValue)): placeholders "
                            + "\(Template.describe(template.placeholders)) differ from English "
                            + Template.describe(reference.placeholders))
                }
                if translated == english, !sameInEveryLanguage.contains(key) {
                    found.append("\(key.rawValue) (\(language.rawValue)): the same as English, not translated")
                }
            }
        }
        return found
    }
}

/// A text that can be written in any language when it is shown: a
/// terminal takes the person's language (``localized``), `--json`, logs,
/// manifests and every other contract take English (``english``, also its
/// `description`).
public struct LocalizedText: Sendable, CustomStringConvertible {
    private let render: @Sendable (Language) -> String

    /// A text made by `render` for a language.
    /// - Parameter render: writes the text in a language.
    public init(_ render: @escaping @Sendable (Language) -> String) {
        self.render = render
    }

    /// Words that are the same in every language: a server's, another
    /// user's, or an error's that has no table.
    /// - Parameter words: the words.
    public init(verbatim words: String) {
        render = { _ in words }
    }

    /// The text in a language.
    /// - Parameter language: the language.
    public func callAsFunction(_ language: Language) -> String { render(language) }

    /// The text in the language of the person (``Language/current``).
    public var localized: String { render(.current) }

    /// The text in English, for contracts.
    public var english: String { render(.english) }

    /// The English text.
    public var description: String { english }

    /// This text with another put after it, in the same language.
    /// - Parameter other: what follows.
    /// - Returns: the joined text.
    public func appending(_ other: LocalizedText) -> LocalizedText {
        let first = self
        return LocalizedText { first($0) + other($0) }
    }
}

/// A value with a text for a person in every language: errors whose
/// owners have a string table. `description` stays English (logs,
/// manifests, JSON); a terminal shows ``localizedText`` in the person's
/// language.
public protocol LocalizedDescription {
    /// The text in every language.
    var localizedText: LocalizedText { get }
}

extension LocalizedText {
    /// The text of any error or value: its own in every language when it
    /// has one (``LocalizedDescription``), else its description as it is.
    /// - Parameter value: the error or value.
    public init(describing value: Any) {
        if let described = value as? any LocalizedDescription {
            self = described.localizedText
        } else {
            self.init(verbatim: String(describing: value))
        }
    }
}

/// A parsed template: literal text and placeholders.
struct Template {
    /// A part of the template.
    enum Part {
        case literal(String)
        case value(String)
        case plural(String, one: String, other: String)
    }

    /// How a placeholder is used: put in, or choosing a plural form.
    enum Use: Equatable {
        case value, plural, both
    }

    private(set) var parts: [Part] = []
    /// Every placeholder by name and how it is used.
    private(set) var placeholders: [String: Use] = [:]
    /// What could not be parsed.
    private(set) var errors: [String] = []

    init(_ template: String) {
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let afterOpen = rest.index(after: open)
            let name = rest[afterOpen...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            let afterName = name.endIndex
            guard let first = name.first, first.isLetter, afterName < rest.endIndex,
                rest[afterName] == "}" || rest[afterName] == "|"
            else {
                // Not a placeholder (`{"status": …}`): written as it is.
                literal.append("{")
                rest = rest[afterOpen...]
                continue
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            if rest[afterName] == "}" {
                parts.append(.value(String(name)))
                note(String(name), .value)
                rest = rest[rest.index(after: afterName)...]
                continue
            }
            let formsStart = rest.index(after: afterName)
            guard let close = rest[formsStart...].firstIndex(of: "}") else {
                errors.append("the plural of {\(name)| does not close")
                literal = String(rest[open...])
                rest = ""
                break
            }
            let forms = rest[formsStart..<close].split(separator: "|", omittingEmptySubsequences: false)
            if forms.count == 2 {
                parts.append(.plural(String(name), one: String(forms[0]), other: String(forms[1])))
                note(String(name), .plural)
            } else {
                errors.append("the plural of {\(name)| needs two forms, one|other")
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
    }

    private mutating func note(_ name: String, _ use: Use) {
        if let known = placeholders[name], known != use {
            placeholders[name] = .both
        } else {
            placeholders[name] = use
        }
    }

    /// The text with the placeholders filled; a placeholder without a value
    /// is written as it stands.
    func render(_ values: [String: PlaceholderValue]) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .value(let name): text += values[name]?.written ?? "{\(name)}"
            case .plural(let name, let one, let other):
                let number: Int64? = if case .number(let n) = values[name] { n } else { nil }
                let form = number == 1 ? one : other
                text += form.split(separator: "#", omittingEmptySubsequences: false)
                    .joined(separator: number.map(String.init) ?? "#")
            }
        }
        return text
    }

    /// The values of the placeholders in `text` when it was written from
    /// this template, else nil (a template with plural forms never matches).
    func match(_ text: String) -> [String: String]? {
        var values: [String: String] = [:]
        var rest = Substring(text)
        var index = parts.startIndex
        while index < parts.endIndex {
            switch parts[index] {
            case .literal(let literal):
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
            case .value(let name):
                let next = parts.index(after: index)
                if next == parts.endIndex {
                    values[name] = String(rest)
                    rest = ""
                } else if case .literal(let literal) = parts[next], let found = Self.firstIndex(of: literal, in: rest) {
                    values[name] = String(rest[..<found])
                    rest = rest[found...]
                } else {
                    return nil
                }
            case .plural:
                return nil
            }
            index = parts.index(after: index)
        }
        return rest.isEmpty ? values : nil
    }

    /// Where `needle` first begins in `haystack`, by characters.
    private static func firstIndex(of needle: String, in haystack: Substring) -> Substring.Index? {
        var index = haystack.startIndex
        while index < haystack.endIndex {
            if haystack[index...].hasPrefix(needle) { return index }
            index = haystack.index(after: index)
        }
        return nil
    }

    /// `{a, b}` for a problem report.
    static func describe(_ placeholders: [String: Use]) -> String {
        "{" + placeholders.keys.sorted().joined(separator: ", ") + "}"
    }
}
