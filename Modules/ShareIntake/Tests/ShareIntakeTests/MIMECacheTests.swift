import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("the binary mime.cache: read instead of the XML, checked as a hostile file")
struct MIMECacheTests {
    /// A `mime` directory whose cache `update-mime-database` made from `body`;
    /// its XML is then replaced by `laterBody` (dated before the cache when
    /// `xmlOlder`), so the answers tell which of the two was read.
    private static func mimeDirectory(
        in temporary: TemporaryDirectory, name: String, body: String, laterBody: String, xmlOlder: Bool
    ) throws -> String {
        let mime = temporary.file(name + "/mime")
        try FileManager.default.createDirectory(atPath: mime + "/packages", withIntermediateDirectories: true)
        try mimeInfo(body).write(toFile: mime + "/packages/test.xml", atomically: true, encoding: .utf8)
        let made = try runProcess("/usr/bin/update-mime-database", [mime])
        #expect(made.status == 0, "update-mime-database: \(made.stderr)")
        try mimeInfo(laterBody).write(toFile: mime + "/packages/test.xml", atomically: true, encoding: .utf8)
        // The cache's time, moved one minute: the XML (and its folder) before or after it.
        var info = stat()
        stat(mime + "/mime.cache", &info)
        let shifted = info.st_mtim.tv_sec + (xmlOlder ? -60 : 60)
        for path in [mime + "/packages/test.xml", mime + "/packages"] {
            var times = [timespec(tv_sec: shifted, tv_nsec: 0), timespec(tv_sec: shifted, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        return mime
    }

    private static let cached = """
        <mime-type type="application/x-cached">
          <sub-class-of type="application/zip"/><alias type="application/x-cached-alias"/>
          <glob pattern="*.cached"/><glob pattern="*.c2"/><glob pattern="*.Exact" case-sensitive="true"/>
          <glob pattern="CachedLiteral" case-sensitive="true"/><glob pattern="cache-[0-9].x" weight="70"/>
        </mime-type>
        <mime-type type="application/zip"><glob pattern="*.zip"/></mime-type>
        """
    private static let fromXML = #"<mime-type type="application/x-from-xml"><glob pattern="*.cached"/></mime-type>"#

    @Test("an up-to-date cache is read instead of the XML; XML newer than its cache is read instead of the cache")
    func freshAndStale() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-cache")
        defer { temporary.remove() }
        let fresh = try Self.mimeDirectory(
            in: temporary, name: "fresh", body: Self.cached, laterBody: Self.fromXML, xmlOlder: true)
        let catalog = try FreedesktopMIMECatalog(packageDirectories: [fresh + "/packages"])
        #expect(catalog.contentTypes(forFileName: "a.cached") == ["application/x-cached"])
        #expect(catalog.contentTypes(forFileName: "A.CACHED") == ["application/x-cached"])
        #expect(catalog.contentTypes(forFileName: "a.Exact") == ["application/x-cached"])
        #expect(catalog.contentTypes(forFileName: "a.exact").isEmpty)
        #expect(catalog.contentTypes(forFileName: "CachedLiteral") == ["application/x-cached"])
        #expect(catalog.contentTypes(forFileName: "cachedliteral").isEmpty)
        #expect(catalog.contentTypes(forFileName: "cache-7.x") == ["application/x-cached"])
        #expect(catalog.canonical("application/x-cached-alias") == "application/x-cached")
        #expect(catalog.conforms("application/x-cached-alias", to: "application/zip"))
        #expect(catalog.isKnown("application/x-cached"))
        #expect(!catalog.isKnown("application/x-from-xml"))
        // The main extension is the first glob of the XML the cache was made
        // from (the per-type file keeps the order), not the cache's order.
        #expect(catalog.preferredExtension(for: "application/x-cached") == "cached")

        let stale = try Self.mimeDirectory(
            in: temporary, name: "stale", body: Self.cached, laterBody: Self.fromXML, xmlOlder: false)
        let reread = try FreedesktopMIMECatalog(packageDirectories: [stale + "/packages"])
        #expect(reread.contentTypes(forFileName: "a.cached") == ["application/x-from-xml"])
        #expect(!reread.isKnown("application/x-cached"))
    }

    @Test("a mime directory holding only the system's mime.cache answers as the system's XML does, for every type")
    func systemCacheAgreesWithXML() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-system")
        defer { temporary.remove() }
        // The XML alone (no cache beside it) and the generated files alone (no packages).
        let xmlOnly = temporary.file("xml/mime/packages")
        try FileManager.default.createDirectory(atPath: xmlOnly, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: "/usr/share/mime/packages")
        where name.hasSuffix(".xml") {
            try FileManager.default.copyItem(atPath: "/usr/share/mime/packages/" + name, toPath: xmlOnly + "/" + name)
        }
        try FileManager.default.copyItem(atPath: "/usr/share/mime", toPath: temporary.file("cache/mime"))
        try FileManager.default.removeItem(atPath: temporary.file("cache/mime/packages"))
        let xml = try FreedesktopMIMECatalog(packageDirectories: [xmlOnly])
        let cache = try FreedesktopMIMECatalog(packageDirectories: [temporary.file("cache/mime/packages")])

        let types = try String(contentsOfFile: "/usr/share/mime/types", encoding: .utf8).split(separator: "\n")
        #expect(types.count > 500)
        for type in types.map(String.init) {
            #expect(cache.canonical(type) == xml.canonical(type), "\(type)")
            #expect(cache.supertypes(of: type) == xml.supertypes(of: type), "\(type)")
            #expect(cache.isKnown(type) == xml.isKnown(type), "\(type)")
            #expect(cache.preferredExtension(for: type) == xml.preferredExtension(for: type), "\(type)")
        }
        for line in try String(contentsOfFile: "/usr/share/mime/aliases", encoding: .utf8).split(separator: "\n") {
            let alias = String(line.split(separator: " ").first ?? "")
            #expect(cache.canonical(alias) == xml.canonical(alias), "\(alias)")
        }
        // A name for every glob: `*.ext` as x.ext and X.EXT, literals as written and uppercased.
        var names: Set<String> = ["no-extension", "archive.tar.gz", "main.C", "main.c", "lib.so.6", "README.md"]
        for line in try String(contentsOfFile: "/usr/share/mime/globs2", encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: ":", maxSplits: 2)
            guard fields.count == 3 else { continue }
            let pattern = fields[2].split(separator: ":").first.map(String.init) ?? ""
            if pattern.hasPrefix("*"), !pattern.dropFirst().contains(where: { "*?[".contains($0) }) {
                names.formUnion(["x" + pattern.dropFirst(), ("x" + pattern.dropFirst()).uppercased()])
            } else if !pattern.contains(where: { "*?[".contains($0) }) {
                names.formUnion([pattern, pattern.uppercased()])
            }
        }
        #expect(names.count > 1000)
        for name in names {
            #expect(cache.contentTypes(forFileName: name) == xml.contentTypes(forFileName: name), "\(name)")
        }
    }

    @Test("a damaged cache is refused whole (the XML is read) or answers what it can, and never crashes")
    func hostileCache() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-hostile")
        defer { temporary.remove() }
        let mime = try Self.mimeDirectory(
            in: temporary, name: "made", body: Self.cached, laterBody: Self.fromXML, xmlOlder: true)
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mime + "/mime.cache")))
        #expect(
            try FreedesktopMIMECatalog(packageDirectories: [mime + "/packages"]).contentTypes(
                forFileName: "a.cached") == ["application/x-cached"])

        func word(_ bytes: [UInt8], _ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func setting(_ bytes: [UInt8], _ offset: Int, _ value: UInt32) -> [UInt8] {
            var changed = bytes
            for index in 0..<4 { changed[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
            return changed
        }
        let suffixTree = word(good, 16)
        let firstRoot = word(good, suffixTree + 4)
        // Refused whole: the header or a list does not fit.
        let refused: [(String, [UInt8])] = [
            ("empty", []),
            ("truncated header", Array(good.prefix(20))),
            ("truncated lists", Array(good.prefix(60))),
            ("major version 2", setting(good, 0, 0x0002_0002)),
            ("minor version 9", setting(good, 0, 0x0001_0009)),
            ("alias list beyond the end", setting(good, 4, UInt32(good.count))),
            ("literal count too large", setting(good, word(good, 12), 0x0FFF_FFFF)),
            ("suffix tree beyond the end", setting(good, 16, 0xFFFF_FFF0)),
        ]
        // Answered in part: entries whose offsets lead nowhere or loop.
        let contained: [(String, [UInt8])] = [
            ("root count huge", setting(good, suffixTree, 0x7FFF_FFFF)),
            ("root offset outside", setting(good, suffixTree + 4, 0xFFFF_FFF0)),
            ("a node's children loop to the roots", setting(good, firstRoot + 8, UInt32(firstRoot))),
            ("a node claims many children", setting(good, firstRoot + 4, 0x00FF_FFFF)),
            ("a literal's string outside", setting(good, word(good, 12) + 4, 0xFFFF_FFF0)),
            ("a glob's type without NUL", setting(good, word(good, 20) + 8, UInt32(good.count - 1))),
            ("a parent list outside", setting(good, word(good, 8) + 8, 0xFFFF_FFF0)),
        ]
        var index = 0
        func catalog(for bytes: [UInt8]) throws -> FreedesktopMIMECatalog {
            index += 1
            let copy = temporary.file("copy\(index)/mime")
            try FileManager.default.createDirectory(atPath: copy + "/packages", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: mime + "/packages/test.xml", toPath: copy + "/packages/test.xml")
            try Data(bytes).write(to: URL(fileURLWithPath: copy + "/mime.cache"))
            var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, copy + "/packages/test.xml", &times, 0) == 0)
            #expect(utimensat(AT_FDCWD, copy + "/packages", &times, 0) == 0)
            return try FreedesktopMIMECatalog(packageDirectories: [copy + "/packages"])
        }
        for (what, bytes) in refused {
            #expect(
                try catalog(for: bytes).contentTypes(forFileName: "a.cached") == ["application/x-from-xml"], "\(what)")
        }
        let names = [
            "a.cached", "A.C2", "a.Exact", "CachedLiteral", "cache-1.x", "x.zip", "",
            "." + String(repeating: "d", count: 300),
        ]
        for (what, bytes) in contained {
            let damaged = try catalog(for: bytes)
            for name in names {
                #expect(!damaged.contentTypes(forFileName: name).contains("application/x-from-xml"), "\(what)")
            }
            _ = damaged.supertypes(of: "application/x-cached-alias")
            _ = damaged.preferredExtension(for: "application/zip")
        }
        // Random damage anywhere after the header: answers, never a crash.
        var generator = SplitMix(seed: 21)
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<4 {
                bytes[Int(generator.next() % UInt64(bytes.count - 40)) + 40] = UInt8(
                    truncatingIfNeeded: generator.next())
            }
            let damaged = try catalog(for: bytes)
            for name in names { _ = damaged.contentTypes(forFileName: name) }
            _ = damaged.supertypes(of: "application/x-cached")
            _ = damaged.isKnown("application/x-cached-alias")
        }
    }

    @Test("a deferred catalog is made only for files and standard input: text loads without a database")
    func deferredCatalog() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let made = Mutex(0)
        let missing = fixture.temporary.file("no-mime/packages")
        let intake = FileShareIntake(
            catalog: { () throws(IntakeError) in
                made.withLock { $0 += 1 }
                return try FreedesktopMIMECatalog(packageDirectories: [missing])
            }, sniffer: MagicSniffer())
        let policy = IntakePolicy(acceptedContentTypes: nil, fileMaxUploadBytes: nil, loadTimeout: .seconds(10))
        let items = try await intake.load(
            [.text("hi"), .link("https://example.com/a")], into: fixture.destination, policy: policy,
            progress: nil)
        #expect(items.map(\.kind) == [.text, .link])
        #expect(made.withLock { $0 } == 0)

        let path = try fixture.write("note.txt", Samples.text)
        let error = await #expect(throws: IntakeError.self) {
            _ = try await intake.load([.file(path: path)], into: fixture.destination, policy: policy, progress: nil)
        }
        #expect(made.withLock { $0 } == 1)
        guard case .unreadable(let item, let reason) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(item == path)
        #expect(reason.contains("shared MIME database was not found"))
        #expect(try fixture.copies().isEmpty)
    }

    private static func mimeInfo(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
        \(body)
        </mime-info>
        """
    }
}

/// A small deterministic generator, so a failing damage pattern can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
