import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("what an argument names, and loading files by path")
struct IntakeSourceTests {
    @Test("a file:// URL and a path are files; https, other scheme:// URLs and mailto: are links")
    func classification() throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let intake = fixture.intake
        #expect(try intake.source(forArgument: "file:///tmp/My%20File%C3%A9.txt") == .file(path: "/tmp/My Fileé.txt"))
        #expect(try intake.source(forArgument: "FILE://localhost/tmp/a.txt") == .file(path: "/tmp/a.txt"))
        #expect(try intake.source(forArgument: "file:/tmp/a.txt") == .file(path: "/tmp/a.txt"))
        #expect(try intake.source(forArgument: "notes/today.txt") == .file(path: "notes/today.txt"))
        #expect(try intake.source(forArgument: "odd:name.txt") == .file(path: "odd:name.txt"))
        #expect(try intake.source(forArgument: "https://example.com/a?b=1") == .link("https://example.com/a?b=1"))
        #expect(try intake.source(forArgument: "http://example.com") == .link("http://example.com"))
        #expect(try intake.source(forArgument: "ftp://example.com/f") == .link("ftp://example.com/f"))
        #expect(try intake.source(forArgument: "mailto:someone@example.com") == .link("mailto:someone@example.com"))
    }

    @Test("a file:// URL of another host, a bad escape or an empty argument is an invalid item")
    func invalidArguments() throws {
        let intake = try IntakeFixture().intake
        for argument in [
            "file://server/share/a.txt", "file:///tmp/%zz", "file:///tmp/%FF%FE", "file:///a%00b", "", "https:///path",
            "https://a b",
        ] {
            let error = #expect(throws: IntakeError.self, "\(argument)") { try intake.source(forArgument: argument) }
            guard case .invalidItem(let item, _) = error else {
                Issue.record("\(argument): \(String(describing: error))")
                continue
            }
            #expect(item == argument)
        }
    }

    @Test("a file:// URL ranks as an image, the https URL beside it as a link with its text")
    func fileURLAndLink() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let path = try fixture.write("shot one.png", Samples.png)
        let url = "file://" + path.replacingOccurrences(of: " ", with: "%20")
        let sources = try [url, "https://example.com/page"].map(fixture.intake.source(forArgument:))
        let items = try await fixture.load(sources)
        #expect(items.map(\.kind) == [.image, .link])
        #expect(items[0].origin == path)
        #expect(items[0].fileName == "shot one.png")
        #expect(items[1].text == "https://example.com/page")
        #expect(items[1].storedName == nil)
        #expect(try fixture.copies() == ["1-shot_one.png"])
    }

    @Test("text sources stay text; no sources load as nothing")
    func textAndNothing() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        #expect(try await fixture.load([]).isEmpty)
        let items = try await fixture.load([.text("look at this")])
        #expect(items == [IntakeItem(kind: .text, origin: "the text", text: "look at this")])
    }

    @Test("a missing path is not found; a directory and a device are unreadable")
    func notFilesOfUse() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let missing = fixture.temporary.file("gone.png")
        #expect(await fixture.loadError([.file(path: missing)]) == .notFound(item: missing))
        guard case .unreadable(let item, let reason) = await fixture.loadError([.file(path: fixture.temporary.path)])
        else {
            Issue.record("a directory was loaded")
            return
        }
        #expect(item == fixture.temporary.path)
        #expect(reason.contains("directory"))
        guard case .unreadable(_, let deviceReason) = await fixture.loadError([.file(path: "/dev/null")]) else {
            Issue.record("a device was loaded")
            return
        }
        #expect(deviceReason.contains("device"))
    }

    @Test("a file over file_max_upload_bytes is refused with its size and the limit before a byte is copied")
    func tooLargeBeforeCopy() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let path = try fixture.write("big.pdf", Samples.pdf)
        let error = await fixture.loadError([.file(path: path)], limit: 10)
        #expect(error == .tooLarge(item: path, size: Int64(Samples.pdf.count), limit: 10))
        #expect(try fixture.copies().isEmpty)
        #expect(try await fixture.load([.file(path: path)], limit: Int64(Samples.pdf.count)).count == 1)
    }

    @Test("a symbolic link is followed; copies get plain, bounded names and keep the original file name")
    func namesAndLinks() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let long = String(repeating: "é", count: 120) + ".txt"
        let weird = try fixture.write("..hidden name.txt", Samples.text)
        let longPath = try fixture.write(long, Samples.text)
        let link = fixture.temporary.file("link.png")
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: fixture.write("target", Samples.png))
        let items = try await fixture.load([.file(path: weird), .file(path: longPath), .file(path: link)])
        #expect(items.map(\.fileName) == ["..hidden name.txt", long, "link.png"])
        #expect(items[0].storedName == "1-hidden_name.txt")
        let second = try #require(items[1].storedName)
        #expect(second.hasPrefix("2-") && second.hasSuffix(".txt") && second.utf8.count <= 100)
        #expect(items[2].kind == .image)
        #expect(try fixture.copy(items[2].storedName) == Samples.png)
        for name in try fixture.copies() {
            #expect(!name.contains("/") && !name.hasPrefix("."))
            let attributes = try FileManager.default.attributesOfItem(atPath: fixture.destination + "/" + name)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }
}
