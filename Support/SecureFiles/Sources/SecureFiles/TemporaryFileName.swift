#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names of the temporary files an atomic replace writes:
/// `.<name>.tmp-<pid>-<random hex>`, next to the file they replace.
///
/// The name says which file a temporary belongs to, so a writer can remove
/// the stale temporaries of the one file its lock covers and leave those of
/// other files alone. A name too long to fit (file names have at most 255
/// bytes) is shortened and given a hash of the whole name, so two long names
/// still get different temporaries.
enum TemporaryFileName {
    /// The longest file name most Linux file systems accept.
    static let maximumLength = 255
    /// The most bytes a name can take in a temporary's name: 255 less the
    /// leading `.`, `.tmp-`, ten pid digits, `-` and sixteen hex digits.
    static let maximumStemLength = maximumLength - 33

    /// The part of a temporary's name that stands for the file `name`.
    /// - Parameter name: the file the temporary will replace.
    /// - Returns: `name` itself when it fits, else a prefix of it and a hash.
    static func stem(of name: String) -> String {
        guard name.utf8.count > maximumStemLength else { return name }
        let hash = String(fnv1a(name), radix: 16)
        let suffix = "~" + String(repeating: "0", count: 16 - hash.count) + hash
        var prefix = ""
        var length = 0
        for scalar in name.unicodeScalars {
            let size = String(scalar).utf8.count
            guard length + size + suffix.utf8.count <= maximumStemLength else { break }
            prefix.unicodeScalars.append(scalar)
            length += size
        }
        return prefix + suffix
    }

    /// The prefix every temporary of `name` starts with.
    /// - Parameter name: the file the temporaries replace.
    /// - Returns: `.<stem>.tmp-`.
    static func prefix(of name: String) -> String {
        "." + stem(of: name) + ".tmp-"
    }

    /// A fresh temporary name for `name`, unique to this process and call.
    /// - Parameter name: the file the temporary will replace.
    /// - Returns: `.<stem>.tmp-<pid>-<random hex>`.
    static func make(for name: String) -> String {
        prefix(of: name) + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    /// Whether a directory entry is a temporary of `name`.
    /// - Parameters:
    ///   - entry: a name found in a directory.
    ///   - name: the file the temporaries replace.
    /// - Returns: true only for `.<stem of name>.tmp-<digits>-<hex>`.
    static func isTemporary(_ entry: String, of name: String) -> Bool {
        let prefix = prefix(of: name)
        return entry.hasPrefix(prefix) && isUniqueSuffix(entry.utf8.dropFirst(prefix.utf8.count))
    }

    /// Whether a directory entry is a temporary of any file:
    /// `.<stem>.tmp-<digits>-<hex>`, or `.tmp-<digits>-<hex>` as earlier
    /// versions named them.
    /// - Parameter entry: a name found in a directory.
    /// - Returns: true for a temporary's name.
    static func isTemporary(_ entry: String) -> Bool {
        let bytes = Array(entry.utf8)
        let marker = Array(".tmp-".utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count > marker.count else { return false }
        // The last ".tmp-": the unique suffix after it holds none.
        var start = bytes.count - marker.count
        while start >= 0 && !bytes[start..<(start + marker.count)].elementsEqual(marker) { start -= 1 }
        return start >= 0 && isUniqueSuffix(bytes[(start + marker.count)...])
    }

    /// `<decimal digits>-<lowercase hex digits>`, both non-empty.
    private static func isUniqueSuffix<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && parts[1].allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): return true
        default: return false
        }
    }

    /// 64-bit FNV-1a over the UTF-8 bytes: stable across runs and processes
    /// (unlike `Hasher`), which the name of a temporary needs.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
