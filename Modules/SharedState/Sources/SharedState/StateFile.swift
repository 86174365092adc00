import ShareKitCore

/// The content of `state.json`, version 1:
/// `{"values":{"<key>":"<value>",…},"version":1}`.
///
/// Keys are kept as strings, not validated on reading: a key written by a
/// newer program that this one does not know is carried along untouched.
///
/// Read with ShareCore's strict parser and written with its canonical
/// writer rather than `Codable`: every `share` run reads this file several
/// times, and `JSONDecoder`'s first use of each type costs the process
/// type-metadata lookups that scan every protocol conformance of the
/// statically linked program (about a millisecond of a 25 ms share, measured
/// with `perf`). The strict parser is the one fuzzed for hostile bytes; it
/// also refuses a member named twice, which no writer of this file makes.
enum StateFile {
    /// The version this code writes and reads.
    static let currentVersion = 1

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
        let file = JSONValue.object([
            "values": .object(values.mapValues(JSONValue.string)),
            "version": .integer(Int64(currentVersion)),
        ])
        return file.canonicalJSON + [UInt8(ascii: "\n")]
    }

    /// Decodes a state file.
    /// - Parameter bytes: the file's bytes.
    /// - Returns: the values, or why the file is not usable.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        guard case .object(let members)? = JSONValue(strictJSON: bytes),
            let versionValue = members["version"], let version = Self.version(versionValue)
        else {
            return .corrupt(bytes.isEmpty ? "the file is empty" : "not a JSON object with a version")
        }
        guard version == currentVersion else { return .unsupportedVersion(version) }
        guard case .object(let stored)? = members["values"] else {
            return .corrupt("`values` is not an object of strings")
        }
        var values: [String: String] = [:]
        values.reserveCapacity(stored.count)
        for (key, value) in stored {
            guard case .string(let text) = value else { return .corrupt("`values` is not an object of strings") }
            values[key] = text
        }
        return .values(values)
    }

    /// The version as a whole number in `Int`'s range (`1` and `1.0` alike,
    /// as `Codable` read it), nil for anything else.
    private static func version(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let number): return Int(exactly: number)
        case .number(let number): return Int(exactly: number)
        default: return nil
        }
    }
}
