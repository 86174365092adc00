import Foundation
public import ShareKitCore

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
