#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `mime.cache` of the shared MIME database: the binary file
/// `update-mime-database` writes next to `packages/` (the specification's
/// cache format, versions 1.1 and 1.2), read without parsing.
///
/// The file is read into memory once (it is about 150 KB) rather than
/// mapped: a cache truncated in place while mapped would end the process
/// with `SIGBUS`, and a read costs tens of microseconds. Lookups then read
/// big-endian numbers and NUL-terminated strings at the offsets the file
/// names.
///
/// The file is treated as hostile: ``init(bytes:)`` checks the header and
/// that every list fits in the file, and every later read is range-checked
/// (an offset outside the file, a string without its NUL or not UTF-8, a
/// suffix tree deeper than the name looked up) and yields nothing instead
/// of trapping. Lists are scanned rather than binary-searched, so a file
/// whose lists are not sorted answers correctly too.
struct MIMECacheFile: Sendable {
    /// A cache larger than this is not one `update-mime-database` wrote.
    static let maximumSize = 64 << 20
    /// The header: two version numbers and nine list offsets.
    static let headerSize = 40
    /// Bit of an entry's weight word: the glob is case-sensitive.
    static let caseSensitiveFlag: UInt32 = 0x100
    /// The pattern `update-mime-database` writes for `<glob-deleteall/>`.
    static let noGlobs = "__NOGLOBS__"

    private let bytes: [UInt8]
    private let aliasList: Int
    private let parentList: Int
    private let literalList: Int
    private let suffixTree: Int
    private let globList: Int

    /// Reads and checks the cache at `path`.
    /// - Returns: nil when the file is missing, not a regular file, larger
    ///   than ``maximumSize``, cannot be read whole or fails the checks of
    ///   ``init(bytes:)``.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0,
            info.st_size <= off_t(Self.maximumSize)
        else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        guard complete else { return nil }
        self.init(bytes: bytes)
    }

    /// Checks a cache's bytes: major version 1, minor version 1 or 2, and
    /// every list the lookups use inside the file.
    /// - Returns: nil for anything else (the caller then reads the XML).
    init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, bytes.count <= Self.maximumSize else { return nil }
        let major = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let minor = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        guard major == 1, minor == 1 || minor == 2 else { return nil }
        func word(_ offset: Int) -> Int {
            Int(
                UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                    | UInt32(bytes[offset + 3]))
        }
        func fits(_ list: Int, entrySize: Int) -> Bool {
            guard list >= Self.headerSize, list <= bytes.count - 4 else { return false }
            // At most 2^32 entries of at most 12 bytes: no overflow in Int.
            return word(list) * entrySize <= bytes.count - list - 4
        }
        aliasList = word(4)
        parentList = word(8)
        literalList = word(12)
        suffixTree = word(16)
        globList = word(20)
        guard fits(aliasList, entrySize: 8), fits(parentList, entrySize: 8), fits(literalList, entrySize: 12),
            fits(globList, entrySize: 12), suffixTree >= Self.headerSize, suffixTree <= bytes.count - 8
        else { return nil }
        self.bytes = bytes
    }

    // MARK: - Reading, range-checked

    /// The big-endian number at `offset`, nil outside the file.
    private func word(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// The NUL-terminated UTF-8 string at `offset`, nil when it is outside
    /// the file, has no NUL within 4 KiB or is not UTF-8.
    private func string(at offset: UInt32) -> String? {
        let start = Int(offset)
        guard start >= Self.headerSize, start < bytes.count else { return nil }
        let limit = min(bytes.count, start + 4096)
        guard let end = bytes[start..<limit].firstIndex(of: 0) else { return nil }
        return String(validating: bytes[start..<end], as: UTF8.self)
    }

    /// The entries of a list checked in ``init(bytes:)``: their offsets.
    private func entries(of list: Int, entrySize: Int) -> StrideTo<Int> {
        let count = Int(word(at: list) ?? 0)
        return stride(from: list + 4, to: list + 4 + count * entrySize, by: entrySize)
    }

    // MARK: - Lookups

    /// Every alias and the type it names, as written.
    func aliases() -> [(alias: String, type: String)] {
        entries(of: aliasList, entrySize: 8).compactMap { entry in
            guard let alias = word(at: entry).flatMap(string(at:)),
                let type = word(at: entry + 4).flatMap(string(at:))
            else { return nil }
            return (alias, type)
        }
    }

    /// Every type with `sub-class-of` parents, and the parents, as written.
    func parents() -> [(type: String, parents: [String])] {
        entries(of: parentList, entrySize: 8).compactMap { entry in
            guard let type = word(at: entry).flatMap(string(at:)), let list = word(at: entry + 4),
                let count = word(at: Int(list))
            else { return nil }
            // A count the file cannot hold is cut to what it can.
            let fitting = min(Int(count), (bytes.count - Int(list) - 4) / 4)
            let parents = (0..<max(0, fitting)).compactMap { word(at: Int(list) + 4 + 4 * $0).flatMap(string(at:)) }
            return (type, parents)
        }
    }

    /// The globs of the file matching `name` (literal names, `*suffix`
    /// patterns from the suffix tree and the other patterns through
    /// `fnmatch`), case-sensitive ones against `name` and the others
    /// against `lowered`. `__NOGLOBS__` markers are never matches.
    /// - Parameters:
    ///   - name: the file name (no directory).
    ///   - lowered: `name` lowercased.
    /// - Returns: the matches, unordered.
    func globMatches(name: String, lowered: String) -> [GlobIndex.Match] {
        var found: [GlobIndex.Match] = []
        for entry in entries(of: literalList, entrySize: 12) {
            guard let glob = glob(at: entry), glob.pattern != Self.noGlobs else { continue }
            if glob.pattern == (glob.caseSensitive ? name : lowered) {
                found.append(.init(glob: glob, isLiteral: true))
            }
        }
        for entry in entries(of: globList, entrySize: 12) {
            guard let glob = glob(at: entry) else { continue }
            let subject = glob.caseSensitive ? name : lowered
            if fnmatch(glob.pattern, subject, 0) == 0 { found.append(.init(glob: glob, isLiteral: false)) }
        }
        suffixMatches(Array(name.unicodeScalars), caseSensitive: true, into: &found)
        suffixMatches(Array(lowered.unicodeScalars), caseSensitive: false, into: &found)
        return found
    }

    /// Whether the file has a `<glob-deleteall/>` marker for `type` (compared lowercased).
    func deletesGlobs(of type: String) -> Bool {
        entries(of: literalList, entrySize: 12).contains { entry in
            guard let glob = glob(at: entry), glob.pattern == Self.noGlobs else { return false }
            return glob.contentType.lowercased() == type
        }
    }

    /// The `*.ext` patterns of `type` (compared lowercased) in the suffix
    /// tree, highest weight first, then alphabetically: the file does not
    /// keep the order of the XML.
    func extensions(of type: String) -> [String] {
        var found: [(ext: String, weight: Int)] = []
        var budget = bytes.count / 12
        guard let roots = word(at: suffixTree), let first = word(at: suffixTree + 4) else { return [] }
        collectLeaves(first: Int(first), count: Int(roots), suffix: [], depth: 0, budget: &budget) { suffix, glob in
            guard glob.contentType.lowercased() == type, suffix.first == ".", suffix.count > 1,
                !suffix.dropFirst().contains(where: { "*?[".unicodeScalars.contains($0) })
            else { return }
            var ext = String.UnicodeScalarView()
            ext.append(contentsOf: suffix.dropFirst())
            found.append((String(ext), glob.weight))
        }
        return found.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.ext < $1.ext }.map(\.ext)
    }

    /// A literal or glob list entry.
    private func glob(at entry: Int) -> GlobIndex.Glob? {
        guard let pattern = word(at: entry).flatMap(string(at:)),
            let type = word(at: entry + 4).flatMap(string(at:)), let weight = word(at: entry + 8)
        else { return nil }
        return GlobIndex.Glob(
            pattern: pattern, contentType: type, weight: Int(weight & 0xFF),
            caseSensitive: weight & Self.caseSensitiveFlag != 0)
    }

    /// Walks the reverse suffix tree along `scalars` from the end: every
    /// node on the way is a suffix of the name, and its leaves (children
    /// with character 0) of the wanted case sensitivity are matches of
    /// `*suffix`. The walk is at most as deep as the name is long, whatever
    /// the file says.
    private func suffixMatches(_ scalars: [Unicode.Scalar], caseSensitive: Bool, into found: inout [GlobIndex.Match]) {
        guard let roots = word(at: suffixTree), let first = word(at: suffixTree + 4) else { return }
        var count = Int(roots)
        var children = Int(first)
        var position = scalars.count
        while position > 0 {
            position -= 1
            guard let node = child(of: children, count: count, character: scalars[position].value) else { return }
            let suffix = String(String.UnicodeScalarView(scalars[position...]))
            guard let nodeCount = word(at: node + 4), let nodeFirst = word(at: node + 8) else { return }
            count = Int(nodeCount)
            children = Int(nodeFirst)
            forEachLeaf(first: children, count: count) { leaf in
                guard let glob = leafGlob(at: leaf, pattern: "*" + suffix), glob.caseSensitive == caseSensitive
                else { return }
                found.append(.init(glob: glob, isLiteral: false))
            }
        }
    }

    /// The child node of a node's children list with `character`, if any.
    private func child(of first: Int, count: Int, character: UInt32) -> Int? {
        for index in 0..<max(0, min(count, bytes.count / 12)) {
            let node = first + 12 * index
            guard let value = word(at: node) else { return nil }
            if value == character { return node }
        }
        return nil
    }

    /// The leaves (character 0) among a node's children.
    private func forEachLeaf(first: Int, count: Int, _ body: (Int) -> Void) {
        for index in 0..<max(0, min(count, bytes.count / 12)) {
            let node = first + 12 * index
            guard let value = word(at: node) else { return }
            if value == 0 { body(node) }
        }
    }

    private func leafGlob(at leaf: Int, pattern: String) -> GlobIndex.Glob? {
        guard let type = word(at: leaf + 4).flatMap(string(at:)), let weight = word(at: leaf + 8) else { return nil }
        return GlobIndex.Glob(
            pattern: pattern, contentType: type, weight: Int(weight & 0xFF),
            caseSensitive: weight & Self.caseSensitiveFlag != 0)
    }

    /// Visits every leaf below a children list with the suffix it stands
    /// for; `budget` (the most nodes the file can hold) ends a walk through
    /// a tree whose offsets loop.
    private func collectLeaves(
        first: Int, count: Int, suffix: [Unicode.Scalar], depth: Int, budget: inout Int,
        _ body: ([Unicode.Scalar], GlobIndex.Glob) -> Void
    ) {
        guard depth < 256 else { return }
        for index in 0..<max(0, min(count, bytes.count / 12)) {
            guard budget > 0 else { return }
            budget -= 1
            let node = first + 12 * index
            guard let value = word(at: node) else { return }
            if value == 0 {
                if let glob = leafGlob(at: node, pattern: "") { body(suffix, glob) }
                continue
            }
            guard let scalar = Unicode.Scalar(value), let nodeCount = word(at: node + 4),
                let nodeFirst = word(at: node + 8)
            else { continue }
            collectLeaves(
                first: Int(nodeFirst), count: Int(nodeCount), suffix: [scalar] + suffix, depth: depth + 1,
                budget: &budget, body)
        }
    }
}
