import ShareKitCore
import Testing

@Suite("the language of texts for a person")
struct LanguageChoiceTests {
    @Test(
        "LC_ALL, then LC_MESSAGES, then LANG, the first set and not empty; any codeset or region",
        arguments: [
            (["LANG": "de_DE.UTF-8"], Language.german),
            (["LANG": "de_AT@euro"], .german),
            (["LANG": "de"], .german),
            (["LANG": "de-CH"], .german),
            (["LANG": "en_GB.UTF-8"], .english),
            (["LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"], .english),
            (["LC_ALL": "", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_US.UTF-8"], .german),
            (["LC_MESSAGES": "", "LANG": "de_DE.UTF-8"], .german),
            (["LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"], .german),
        ])
    func posixOrder(environment: [String: String], language: Language) {
        #expect(Language.chosen(environment: environment) == language)
    }

    @Test(
        "nothing set, C, POSIX, C.UTF-8 or a language without a table: English",
        arguments: [
            [:], ["LANG": ""], ["LANG": "C"], ["LANG": "POSIX"], ["LANG": "C.UTF-8"], ["LC_ALL": "C", "LANG": "de_DE"],
            ["LANG": "fr_FR.UTF-8"], ["LANG": "ja_JP.eucJP"],
        ])
    func english(environment: [String: String]) {
        #expect(Language.chosen(environment: environment) == .english)
    }

    @Test("LANGUAGE, a list, wins over the locale, except in the C locale, where it is not looked at")
    func languageList() {
        #expect(Language.chosen(environment: ["LANGUAGE": "fr:de:en", "LANG": "en_US.UTF-8"]) == .german)
        #expect(Language.chosen(environment: ["LANGUAGE": "en:de", "LANG": "de_DE.UTF-8"]) == .english)
        #expect(Language.chosen(environment: ["LANGUAGE": "::de_AT", "LANG": "fr_FR"]) == .german)
        #expect(Language.chosen(environment: ["LANGUAGE": "de", "LANG": "C.UTF-8"]) == .english)
        #expect(Language.chosen(environment: ["LANGUAGE": "de"]) == .english, "no locale is the C locale")
        // Like gettext: a list that names no language of the tables means the untranslated texts.
        #expect(Language.chosen(environment: ["LANGUAGE": "fr:it", "LANG": "de_DE.UTF-8"]) == .english)
        #expect(Language.chosen(environment: ["LANGUAGE": "", "LANG": "de_DE.UTF-8"]) == .german)
    }

    @Test("a task can set the language for its work; the process's choice stays")
    func override() async {
        let process = Language.current
        #expect(Language.withLanguage(.german) { Language.current } == .german)
        #expect(await Language.withLanguage(.german) { await Task { Language.current }.value } == .german)
        #expect(Language.current == process)
    }
}

/// A table of the tests' own.
enum SampleKey: String, StringTableKey {
    case greeting, files, status, name
}

@Suite("string tables")
struct StringTableTests {
    static let table = StringTable<SampleKey>(
        english: [
            .greeting: "hello {who}", .files: "{count} {count|file|files} in {place}",
            .status: #"an object {"status": "sent"} and {x"#, .name: "{who}",
        ],
        german: [
            .greeting: "hallo {who}", .files: "{count|eine Datei|# Dateien} in {place}",
            .status: #"ein Objekt {"status": "sent"} und {x"#, .name: "{who}",
        ],
        sameInEveryLanguage: [.name])

    @Test("placeholders are filled, plural forms chosen by the number, other braces written as they are")
    func rendering() {
        #expect(Self.table.text(.greeting, ["who": "Sam"], in: .german) == "hallo Sam")
        #expect(Self.table.text(.files, ["count": 1, "place": "a"], in: .english) == "1 file in a")
        #expect(Self.table.text(.files, ["count": 3, "place": "a"], in: .english) == "3 files in a")
        #expect(Self.table.text(.files, ["count": 1, "place": "b"], in: .german) == "eine Datei in b")
        #expect(Self.table.text(.files, ["count": 0, "place": "b"], in: .german) == "0 Dateien in b")
        #expect(Self.table.text(.status, in: .german) == #"ein Objekt {"status": "sent"} und {x"#)
        // A value is put in once: braces in it are never read as placeholders.
        #expect(Self.table.text(.greeting, ["who": "{who}"], in: .english) == "hello {who}")
    }

    @Test("a localized text is English for contracts and the person's language on a terminal")
    func localizedText() {
        let text = Self.table.localized(.greeting, ["who": "Robin"])
        #expect(text.english == "hello Robin" && "\(text)" == "hello Robin")
        #expect(Language.withLanguage(.german) { text.localized } == "hallo Robin")
        #expect(LocalizedText(verbatim: "the server's words")(.german) == "the server's words")
    }

    @Test("a whole table has no problems")
    func whole() {
        #expect(Self.table.problems == [])
    }

    @Test("a missing text, other placeholders, a plural without two forms or unclosed, English left in")
    func problems() {
        let broken = StringTable<SampleKey>(
            english: [.greeting: "hello {who}", .files: "{count} {count|file|files}", .status: "s {a|x", .name: "n"],
            german: [.greeting: "hallo {wer}", .files: "{count} {count|Dateien}", .name: "n"])
        #expect(
            broken.problems == [
                "greeting (de): placeholders {wer} differ from English {who}",
                "files (de): the plural of {count| needs two forms, one|other",
                "status (en): the plural of {a| does not close",
                "status: no de text",
                "name (de): the same as English, not translated",
            ])
    }
}
