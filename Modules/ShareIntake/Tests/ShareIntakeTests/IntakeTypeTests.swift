import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

@Suite("kinds and content types of loaded files")
struct IntakeTypeTests {
    @Test("a PNG, a JPEG and a PDF load as image, image and pdf, copied byte for byte with the accepted type")
    func imagesAndPDF() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let paths = try [("photo.png", Samples.png), ("photo.jpg", Samples.jpeg), ("paper.pdf", Samples.pdf)].map {
            try fixture.write($0.0, $0.1)
        }
        let items = try await fixture.load(paths.map { .file(path: $0) })
        #expect(items.map(\.kind) == [.image, .image, .pdf])
        #expect(items.map(\.contentType) == ["image/png", "image/jpeg", "application/pdf"])
        #expect(items.map(\.detectedContentType) == ["image/png", "image/jpeg", "application/pdf"])
        #expect(items.map(\.fileName) == ["photo.png", "photo.jpg", "paper.pdf"])
        #expect(items.map(\.origin) == paths)
        for (item, bytes) in zip(items, [Samples.png, Samples.jpeg, Samples.pdf]) {
            #expect(try fixture.copy(item.storedName) == bytes)
            #expect(item.size == Int64(bytes.count))
        }
        #expect(try fixture.copies() == ["1-photo.png", "2-photo.jpg", "3-paper.pdf"])
    }

    @Test("a text file named .png is text/plain: the bytes win over the name")
    func bytesWin() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let item = try await fixture.loadFile("not-really.png", Samples.text)
        #expect(item.kind == .file)
        #expect(item.contentType == "text/plain")
        #expect(item.detectedContentType == "text/plain")
    }

    @Test("a .py file is text/x-python, uploaded as text/plain when only text/plain fits, as itself when all pass")
    func nearestAcceptedSupertype() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let demo = try await fixture.loadFile("tool.py", Samples.python)
        #expect(demo.detectedContentType == "text/x-python")
        #expect(demo.contentType == "text/plain")
        #expect(demo.kind == .file)
        let open = try await fixture.loadFile("tool.py", Samples.python, accepted: nil)
        #expect(open.contentType == "text/x-python")
    }

    @Test("a ZIP named .odt is the more specific OpenDocument type; a server taking only ZIP gets application/zip")
    func nameRefinesBytes() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let item = try await fixture.loadFile("letter.odt", Samples.zip, accepted: nil)
        #expect(item.detectedContentType == "application/vnd.oasis.opendocument.text")
        #expect(item.kind == .file)
        let zipOnly = try await fixture.loadFile("letter.odt", Samples.zip, accepted: ["application/zip"])
        #expect(zipOnly.contentType == "application/zip")
    }

    @Test("a ZIP and an ELF program are refused naming their type and the accepted list, and nothing is copied")
    func unsupportedRefusedBeforeCopy() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let archive = try fixture.write("archive.zip", Samples.zip)
        let program = try fixture.write("program", Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/true"))))
        let zipError = await fixture.loadError([.file(path: archive)])
        #expect(
            zipError == .unsupportedType(item: archive, contentType: "application/zip", accepted: Samples.demoTypes))
        guard case .unsupportedType(let item, let type, _) = await fixture.loadError([.file(path: program)]) else {
            Issue.record("the ELF program was not refused")
            return
        }
        #expect(item == program)
        #expect(type.hasPrefix("application/x-"))
        #expect(zipError?.description.contains("application/zip") == true)
        #expect(try fixture.copies().isEmpty)
    }

    @Test("application/octet-stream is used only when the server accepts it")
    func octetStreamOnlyWhenAccepted() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let item = try await fixture.loadFile(
            "archive.zip", Samples.zip, accepted: ["text/plain", "application/octet-stream"])
        #expect(item.contentType == "application/octet-stream")
        #expect(item.detectedContentType == "application/zip")
    }

    @Test("an SVG is an image (it conforms to image/*), sent as text/plain to a server without SVG")
    func svgIsAnImage() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let item = try await fixture.loadFile("logo.svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8))
        #expect(item.kind == .image)
        #expect(item.detectedContentType == "image/svg+xml")
        #expect(item.contentType == "text/plain")
    }

    @Test("an empty file is what its name says; without a name type it is application/x-zerosize")
    func emptyFiles() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let notes = try await fixture.loadFile("notes.txt", [])
        #expect(notes.contentType == "text/plain")
        #expect(notes.size == 0)
        let unnamed = try fixture.write("unnamed", [])
        #expect(
            await fixture.loadError([.file(path: unnamed)])
                == .unsupportedType(item: unnamed, contentType: "application/x-zerosize", accepted: Samples.demoTypes))
    }
}
