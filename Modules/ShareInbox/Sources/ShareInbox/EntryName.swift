/// The rules for names inside the inbox: which strings may name an entry,
/// and which may name a file inside one. Both keep every path inside the
/// folder it is joined to.
enum EntryName {
    /// The longest entry id (a `client_msg_id` is a 36-character UUID).
    static let maximumIDLength = 64

    /// An entry id: 1 to 64 of `A-Z a-z 0-9 _ -`. Nothing else can name a
    /// folder of the inbox (no dot, so never a hidden or a relative name).
    static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...maximumIDLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    /// A plain file name: one path component, not hidden (no leading `.`,
    /// which also excludes `.` and `..`), no `/` and no NUL, at most 255 bytes.
    static func isPlainFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255, bytes[0] != UInt8(ascii: ".") else { return false }
        return !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0)
    }

    /// A random lowercase hex suffix that keeps two drafts (or two removals)
    /// of one id apart.
    static func uniqueSuffix() -> String { String(UInt64.random(in: 0...UInt64.max), radix: 16) }
}
