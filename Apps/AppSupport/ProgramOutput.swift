public import Foundation

extension ProgramIO {
    /// Writes one JSON object on a line of standard output, keys sorted:
    /// the `--json` form of every command's result.
    public func writeJSON(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        out.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}

/// A failure a program reports with a message for a person (no server, a
/// store that cannot be opened): the message is the whole description.
public struct ProgramError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for a person.
    public let description: String

    /// - Parameter description: what went wrong, for a person.
    public init(_ description: String) { self.description = description }
}
