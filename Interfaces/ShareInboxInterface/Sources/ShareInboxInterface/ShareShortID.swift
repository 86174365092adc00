/// Short ids a person can type for shares.
///
/// A share's id is a UUIDv7 (`01a23fac-e43d-719a-a7b8-09f23583f9e7`): its
/// beginning is the time it was made, so every share of one minute has the
/// same first eight characters, and a prefix names a share only once it is
/// long. Its end (the last group, 48 random bits) tells shares apart: the
/// short id is the shortest end of the id, at least ``minimumLength``
/// characters, that no other id of the set begins or ends with, so typing
/// it names exactly that share. An id that is not a UUID (the folder name of
/// a foreign entry in quarantine) is its own short id.
///
/// ```swift
/// let short = ShareShortID.shortIDs(for: ids)   // [full id: "83f9e7", ...]
/// ShareShortID.matches("83f9e7", id: ids[0])    // true: a suffix
/// ```
///
/// `share inbox list` shows these; `share inbox show|retry|drop` and shell
/// completion take them.
public enum ShareShortID {
    /// The fewest characters a short id, or a prefix or suffix typed for an id, has.
    public static let minimumLength = 6

    /// The short id of every id in `ids`: unique among them (no other id
    /// begins or ends with it), at least ``minimumLength`` characters, taken
    /// from the random end of a UUID.
    /// - Parameter ids: the ids of the shares a person is shown (duplicates count once).
    /// - Returns: each id's short id.
    public static func shortIDs(for ids: some Sequence<String>) -> [String: String] {
        let unique = Array(Set(ids))
        var result: [String: String] = [:]
        var open: [String] = []
        for id in unique {
            if isUUID(id) { open.append(id) } else { result[id] = id }
        }
        // Length by length, so an inbox of thousands costs a few dictionaries, not n² comparisons.
        var length = minimumLength
        while !open.isEmpty {
            var suffixes: [Substring: Int] = [:]
            var prefixes: [Substring: String] = [:]
            var sharedPrefixes: Set<Substring> = []
            for id in unique where id.count >= length {
                suffixes[id.suffix(length), default: 0] += 1
                let prefix = id.prefix(length)
                if let owner = prefixes[prefix], owner != id { sharedPrefixes.insert(prefix) }
                prefixes[prefix] = id
            }
            var still: [String] = []
            for id in open {
                guard length < id.count else {
                    result[id] = id
                    continue
                }
                let end = id.suffix(length)
                let beginsAnother = prefixes[end].map { $0 != id || sharedPrefixes.contains(end) } ?? false
                if suffixes[end] == 1, !beginsAnother {
                    result[id] = String(end)
                } else {
                    still.append(id)
                }
            }
            open = still
            length += 1
        }
        return result
    }

    /// Whether `typed` names `id`: the id itself, or a prefix or suffix of
    /// it of at least ``minimumLength`` characters (in either case).
    /// - Parameters:
    ///   - typed: what the person typed.
    ///   - id: a share's full id.
    public static func matches(_ typed: String, id: String) -> Bool {
        if typed == id { return true }
        guard typed.count >= minimumLength else { return false }
        let lowered = typed.lowercased()
        let text = isUUID(id) ? id.lowercased() : id
        let wanted = isUUID(id) ? lowered : typed
        return text.hasPrefix(wanted) || text.hasSuffix(wanted)
    }

    /// Whether `id` has the canonical 8-4-4-4-12 form of a UUID.
    static func isUUID(_ id: String) -> Bool {
        let utf8 = Array(id.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                guard hex else { return false }
            }
        }
        return true
    }
}
