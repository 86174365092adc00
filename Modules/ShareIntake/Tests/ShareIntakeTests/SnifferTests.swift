import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

@Suite("libmagic tells the type from the bytes")
struct SnifferTests {
    @Test("PNG, JPEG, PDF, ZIP, text and an ELF program are told from their bytes, whatever their names")
    func sniffing() throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let sniffer = MagicSniffer()
        #expect(try sniffer.contentType(ofFileAt: fixture.write("a.bin", Samples.png)) == "image/png")
        #expect(try sniffer.contentType(ofFileAt: fixture.write("b.bin", Samples.jpeg)) == "image/jpeg")
        #expect(try sniffer.contentType(ofFileAt: fixture.write("c.bin", Samples.pdf)) == "application/pdf")
        #expect(try sniffer.contentType(ofFileAt: fixture.write("d.png", Samples.zip)) == "application/zip")
        #expect(try sniffer.contentType(ofFileAt: fixture.write("e.png", Samples.text)) == "text/plain")
        let elf = try sniffer.contentType(
            ofFileAt: fixture.write("f.txt", Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))))
        #expect(elf.hasPrefix("application/x-") && (elf.contains("executable") || elf.contains("sharedlib")))
    }

    @Test("sniffing from many tasks at once gives the same answers (the libmagic handle is locked)")
    func concurrentSniffing() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let sniffer = MagicSniffer()
        let png = try fixture.write("p.png", Samples.png)
        let pdf = try fixture.write("p.pdf", Samples.pdf)
        let answers = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try (0..<50).map { n in try sniffer.contentType(ofFileAt: n.isMultiple(of: 2) ? png : pdf) }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(answers.count == 400)
        #expect(answers.filter { $0 == "image/png" }.count == 200)
        #expect(answers.filter { $0 == "application/pdf" }.count == 200)
    }

    @Test("the database can be released after a load; the next sniff loads it again")
    func releasedDatabase() throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let sniffer = MagicSniffer()
        let png = try fixture.write("r.png", Samples.png)
        #expect(try sniffer.contentType(ofFileAt: png) == "image/png")
        sniffer.releaseDatabase()
        sniffer.releaseDatabase()
        #expect(try sniffer.contentType(ofFileAt: png) == "image/png")
        #expect(try sniffer.contentType(ofFileAt: fixture.write("r.pdf", Samples.pdf)) == "application/pdf")
    }

    @Test("a missing file is unreadable, and the error names it")
    func missing() throws {
        let error = #expect(throws: IntakeError.self) { try MagicSniffer().contentType(ofFileAt: "/nonexistent/x.png") }
        guard case .unreadable(let item, _) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(item == "/nonexistent/x.png")
    }
}
