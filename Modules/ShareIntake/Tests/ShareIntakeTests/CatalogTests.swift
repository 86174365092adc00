import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

@Suite("the shared MIME database as a conformance relation")
struct CatalogTests {
    let catalog: FreedesktopMIMECatalog

    init() throws { catalog = try FreedesktopMIMECatalog() }

    @Test(
        "sub-class-of is transitive: text/x-python is text/plain, image/svg+xml is application/xml, never the reverse")
    func subclassConformance() {
        #expect(catalog.conforms("text/x-python", to: "text/plain"))
        #expect(catalog.conforms("image/svg+xml", to: "application/xml"))
        // svg -> application/xml -> text/plain: two steps.
        #expect(catalog.conforms("image/svg+xml", to: "text/plain"))
        #expect(catalog.conforms("application/vnd.oasis.opendocument.text", to: "application/zip"))
        #expect(!catalog.conforms("text/plain", to: "text/x-python"))
        #expect(!catalog.conforms("application/xml", to: "image/svg+xml"))
        #expect(!catalog.conforms("image/png", to: "text/plain"))
        #expect(catalog.conforms("image/png", to: "image/png"))
        #expect(catalog.supertypes(of: "text/x-python").first == "text/x-python")
        #expect(catalog.supertypes(of: "text/x-python").last == "application/octet-stream")
    }

    @Test("aliases resolve to the canonical type and conform through it; names are lowercased without parameters")
    func aliases() {
        #expect(catalog.canonical("application/x-pdf") == "application/pdf")
        #expect(catalog.canonical("text/xml") == "application/xml")
        #expect(catalog.canonical("Image/PNG; charset=binary") == "image/png")
        // A ";" joined with the mark after it is still where the parameters begin.
        #expect(catalog.canonical("image/png;\u{1F3FB}x") == "image/png")
        #expect(catalog.canonical("image/png;\u{301}x") == "image/png")
        #expect(catalog.conforms("application/x-pdf", to: "application/pdf"))
        #expect(catalog.conforms("application/pdf", to: "image/pdf"))
        #expect(catalog.conforms("text/xml", to: "text/plain"))
        #expect(catalog.isKnown("application/x-pdf"))
        #expect(!catalog.isKnown("application/x-no-such-type"))
    }

    @Test("implicit rules: every text/* is text/plain, everything but inode/* is application/octet-stream")
    func implicitRules() {
        #expect(catalog.conforms("text/x-made-up", to: "text/plain"))
        #expect(catalog.conforms("image/png", to: "application/octet-stream"))
        #expect(catalog.conforms("application/x-made-up", to: "application/octet-stream"))
        #expect(!catalog.conforms("inode/directory", to: "application/octet-stream"))
        #expect(!catalog.conforms("application/x-made-up", to: "text/plain"))
    }

    @Test("globs: the longest suffix wins, case-insensitive unless the glob is case-sensitive")
    func globs() {
        #expect(catalog.contentTypes(forFileName: "backup.tar.gz").first == "application/x-compressed-tar")
        #expect(catalog.contentTypes(forFileName: "backup.tar.gz").contains("application/gzip"))
        #expect(catalog.contentTypes(forFileName: "/some/dir/PHOTO.JPG").first == "image/jpeg")
        #expect(catalog.contentTypes(forFileName: "script.py").first == "text/x-python")
        #expect(catalog.contentTypes(forFileName: "main.C").first == "text/x-c++src")
        #expect(catalog.contentTypes(forFileName: "main.c").first == "text/x-csrc")
        #expect(catalog.contentTypes(forFileName: "no-extension-here").isEmpty)
        #expect(catalog.preferredExtension(for: "image/png") == "png")
    }

    @Test("a catalog from a folder of XML files: chains, aliases, weights, glob-deleteall; a malformed file is skipped")
    func injectedDatabase() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-db")
        defer { temporary.remove() }
        let low = temporary.file("low")
        let high = temporary.file("high")
        try FileManager.default.createDirectory(atPath: low, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: high, withIntermediateDirectories: false)
        try Self.mimeInfo(
            """
            <mime-type type="application/x-base"><comment>base</comment><glob pattern="*.base"/></mime-type>
            <mime-type type="application/x-middle">
              <sub-class-of type="application/x-base-alias"/><glob pattern="*.mid"/><glob pattern="*.shared" weight="40"/>
            </mime-type>
            <mime-type type="application/x-leaf">
              <comment xml:lang="de">Blatt</comment><magic><match type="string" value="x" offset="0"/></magic>
              <sub-class-of type="application/x-middle"/><glob pattern="*.shared" weight="80"/>
            </mime-type>
            <mime-type type="application/x-base"><alias type="application/x-base-alias"/></mime-type>
            <mime-type type="application/x-replaced"><glob pattern="*.old"/></mime-type>
            """
        ).write(toFile: low + "/a.xml", atomically: true, encoding: .utf8)
        try Self.mimeInfo(
            #"<mime-type type="application/x-replaced"><glob-deleteall/><glob pattern="*.new"/></mime-type>"#
        )
        .write(toFile: high + "/b.xml", atomically: true, encoding: .utf8)
        try "<mime-info><mime-type type=\"application/x-broken\">".write(
            toFile: high + "/c.xml", atomically: true, encoding: .utf8)

        let custom = try FreedesktopMIMECatalog(packageDirectories: [high, low])
        #expect(custom.conforms("application/x-leaf", to: "application/x-base"))
        #expect(custom.conforms("application/x-leaf", to: "application/x-base-alias"))
        #expect(!custom.conforms("application/x-base", to: "application/x-leaf"))
        #expect(
            custom.supertypes(of: "application/x-leaf") == [
                "application/x-leaf", "application/x-middle", "application/x-base", "application/octet-stream",
            ])
        #expect(custom.contentTypes(forFileName: "f.shared") == ["application/x-leaf", "application/x-middle"])
        #expect(custom.contentTypes(forFileName: "f.old").isEmpty)
        #expect(custom.contentTypes(forFileName: "f.new") == ["application/x-replaced"])
        #expect(!custom.isKnown("application/x-broken"))
        #expect(custom.directories == [high, low])
    }

    @Test("no database: the error names where it looked; XDG_DATA_DIRS is honoured")
    func missingDatabase() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-none")
        defer { temporary.remove() }
        let environment = [
            "XDG_DATA_HOME": temporary.file("home"), "XDG_DATA_DIRS": temporary.file("a") + ":" + temporary.file("b"),
        ]
        let error = #expect(throws: IntakeError.self) { try FreedesktopMIMECatalog(environment: environment) }
        #expect(
            error
                == .mimeDatabaseNotFound(searched: [
                    temporary.file("home/mime/packages"), temporary.file("a/mime/packages"),
                    temporary.file("b/mime/packages"),
                ]))
        #expect(error?.description.contains("shared-mime-info") == true)

        try FileManager.default.createDirectory(
            atPath: temporary.file("b/mime/packages"), withIntermediateDirectories: true)
        try Self.mimeInfo(#"<mime-type type="application/x-only-here"><glob pattern="*.here"/></mime-type>"#)
            .write(toFile: temporary.file("b/mime/packages/only.xml"), atomically: true, encoding: .utf8)
        let found = try FreedesktopMIMECatalog(environment: environment)
        #expect(found.contentTypes(forFileName: "x.here") == ["application/x-only-here"])
        #expect(!found.isKnown("image/png"))
    }

    @Test("a directory list is loaded once per process: a later catalog for it answers after its files are gone")
    func loadedOnce() throws {
        let temporary = try TemporaryDirectory(prefix: "mime-once")
        defer { temporary.remove() }
        let packages = temporary.file("mime/packages")
        try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
        try Self.mimeInfo(#"<mime-type type="application/x-once"><glob pattern="*.once"/></mime-type>"#)
            .write(toFile: packages + "/once.xml", atomically: true, encoding: .utf8)
        let first = try FreedesktopMIMECatalog(packageDirectories: [packages])
        #expect(first.contentTypes(forFileName: "a.once") == ["application/x-once"])
        try FileManager.default.removeItem(atPath: temporary.file("mime"))
        let later = try FreedesktopMIMECatalog(packageDirectories: [packages])
        #expect(later.contentTypes(forFileName: "a.once") == ["application/x-once"])
        #expect(throws: IntakeError.self) { try FreedesktopMIMECatalog(packageDirectories: [packages + "/."]) }
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
