import Foundation

/// The content of `state.json`, version 1:
/// `{"values":{"<key>":"<value>",…},"version":1}`.
///
/// Keys are kept as strings, not validated on reading: a key written by a
/// newer program that this one does not know is carried along untouched.
struct StateFile: Codable {
    /// The version this code writes and reads.
    static let currentVersion = 1

    var version: Int
    var values: [String: String]

    /// What the bytes of a state file hold: a plain value, not an error,
    /// because the caller decides under which lock a corrupt file is moved
    /// aside.
    enum Decoded {
        /// The values of a file this program reads.
        case values([String: String])
        /// Not the format at all: to be moved aside.
        case corrupt(String)
        /// A version this program does not know: left alone, never moved.
        case unsupportedVersion(Int)
    }

    /// Encodes the values, keys sorted so the file is stable and diffable.
    /// - Parameter values: the state.
    /// - Returns: the file's bytes.
    static func encode(_ values: [String: String]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a dictionary of strings and an integer cannot fail.
        let data = (try? encoder.encode(StateFile(version: currentVersion, values: values))) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Decodes a state file.
    /// - Parameter bytes: the file's bytes.
    /// - Returns: the values, or why the file is not usable.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        struct Versioned: Decodable { var version: Int }
        let data = Data(bytes)
        guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
            return .corrupt(bytes.isEmpty ? "the file is empty" : "not a JSON object with a version")
        }
        guard versioned.version == currentVersion else { return .unsupportedVersion(versioned.version) }
        guard let file = try? JSONDecoder().decode(StateFile.self, from: data) else {
            return .corrupt("`values` is not an object of strings")
        }
        return .values(file.values)
    }
}
