import Foundation
public import ShareCore

extension ProgramIO {
    /// Writes one JSON value on a line of standard output: the `--json`
    /// form of every command's result. Object members are sorted and
    /// slashes are not escaped (`"http://host"`, `"Team/general"`), as in
    /// every request and answer body of the API.
    /// - Parameter value: the result (an object, or an array of them).
    public func writeJSON(_ value: JSONValue) {
        out.write(Self.jsonLine(value) + "\n")
    }

    /// The text ``writeJSON(_:)`` writes, without the newline.
    /// - Parameter value: the value.
    /// - Returns: compact JSON, members sorted, slashes not escaped.
    public static func jsonLine(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a number that is not finite cannot be encoded; no output holds one.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// A failure a program reports with a message for a person (no server, a
/// store that cannot be opened): the message is the whole description, in
/// English (``description``, for `--json` and logs) and in the person's
/// language (``localizedText``, for a terminal).
public struct ProgramError: Error, CustomStringConvertible, Sendable, LocalizedDescription {
    /// What went wrong, in every language.
    public let localizedText: LocalizedText

    /// What went wrong, in English.
    public var description: String { localizedText.english }

    /// - Parameter description: what went wrong, the same in every language.
    public init(_ description: String) { localizedText = LocalizedText(verbatim: description) }

    /// - Parameter text: what went wrong, in every language.
    public init(_ text: LocalizedText) { localizedText = text }
}
