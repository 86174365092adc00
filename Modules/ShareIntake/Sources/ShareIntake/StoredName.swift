/// The name of a copy inside the destination folder: a plain, bounded,
/// harmless name derived from the original one (`3-holiday_photo.jpg`),
/// never a path, never hidden.
enum StoredName {
    /// The longest stem kept, in bytes (names stay far below `NAME_MAX`).
    static let maximumStemLength = 80
    /// The longest extension kept, in bytes.
    static let maximumExtensionLength = 16

    /// - Parameters:
    ///   - index: the item's position (0-based); the name starts with `index + 1`.
    ///   - fileName: the original base name.
    ///   - attempt: a retry counter for a name that is taken (0 first).
    static func make(index: Int, fileName: String, attempt: Int = 0) -> String {
        let safe = String(fileName.unicodeScalars.map { isPlain($0) ? Character($0) : "_" })
        var stem = Substring(safe)
        var ext = Substring("")
        if let dot = safe.lastIndex(of: "."), dot != safe.startIndex,
            safe.distance(from: dot, to: safe.endIndex) <= maximumExtensionLength + 1
        {
            stem = safe[..<dot]
            ext = safe[dot...]
        }
        while stem.first == "." || stem.first == "-" { stem = stem.dropFirst() }
        let bounded = (stem.isEmpty ? "file" : String(stem.prefix(maximumStemLength))) + ext
        let prefix = attempt == 0 ? "\(index + 1)" : "\(index + 1).\(attempt)"
        return prefix + "-" + bounded
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_", "+": return true
        default: return false
        }
    }
}
