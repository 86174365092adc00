import Dispatch
import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FIFOs, standard input and large files: streamed, within the deadline")
struct IntakeStreamTests {
    @Test("a FIFO whose writer never writes fails with deadlineExceeded, within the deadline")
    func stalledFIFO() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let fifo = try fixture.fifo("stalled")
        // O_RDWR never blocks on Linux: a writer that stays silent.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        let clock = ContinuousClock()
        let started = clock.now
        let error = await fixture.loadError([.file(path: fifo)], timeout: .milliseconds(300))
        let elapsed = clock.now - started
        #expect(error == .deadlineExceeded(item: fifo, seconds: 0.3))
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < .seconds(3))
    }

    @Test("a FIFO that delivers 300 KB is copied whole and typed from the copy")
    func deliveringFIFO() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let fifo = try fixture.fifo("feed.txt")
        let payload = Array(repeating: Array("a line of text for the fifo\n".utf8), count: 11_000).flatMap { $0 }
        // The writer's open blocks until intake opens the reading end.
        DispatchQueue.global().async { Self.writeAll(payload, toPath: fifo) }
        let item = try #require(try await fixture.load([.file(path: fifo)]).first)
        #expect(item.kind == .file)
        #expect(item.contentType == "text/plain")
        #expect(item.size == Int64(payload.count))
        #expect(try fixture.copy(item.storedName) == payload)
    }

    @Test("a FIFO that goes over file_max_upload_bytes while it is read is refused")
    func fifoOverLimit() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let fifo = try fixture.fifo("flood")
        let payload = [UInt8](repeating: 0x41, count: 3 << 20)
        DispatchQueue.global().async { Self.writeAll(payload, toPath: fifo) }
        guard
            case .tooLarge(let item, let size, let limit) = await fixture.loadError([.file(path: fifo)], limit: 1 << 20)
        else {
            Issue.record("the flood was not refused")
            return
        }
        #expect(item == fifo && limit == 1 << 20 && size > limit)
    }

    @Test("a 64 MiB sparse file is streamed into the copy, verified by size, with progress along the way")
    func largeSparseFile() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let path = try fixture.write("disk.img", [])
        let size: Int64 = 64 << 20
        #expect(truncate(path, off_t(size)) == 0)
        let reports = Mutex<[IntakeProgress]>([])
        let item = try #require(
            try await fixture.load([.file(path: path)], accepted: nil) { progress in
                reports.withLock { $0.append(progress) }
            }.first)
        #expect(item.size == size)
        #expect(item.contentType == "application/octet-stream")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: fixture.destination + "/" + (item.storedName ?? ""))
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
        let seen = reports.withLock { $0 }
        #expect(seen.count >= 64)
        #expect(seen.last == IntakeProgress(index: 0, copiedBytes: size, totalBytes: size))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.copiedBytes < $1.copiedBytes })
    }

    @Test("standard input that is short UTF-8 text becomes message text, and no copy is kept")
    func standardInputText() async throws {
        let fixture = try Self.fixture(standardInput: Array("a note from a pipe\n".utf8))
        defer { fixture.remove() }
        let items = try await fixture.load([.standardInput])
        #expect(items == [IntakeItem(kind: .text, origin: "standard input", text: "a note from a pipe\n")])
        #expect(try fixture.copies().isEmpty)
    }

    @Test("binary standard input is an attachment named stdin.png; long text is stdin.txt")
    func standardInputAttachments() async throws {
        let fixture = try Self.fixture(standardInput: Samples.png)
        defer { fixture.remove() }
        let image = try #require(try await fixture.load([.standardInput]).first)
        #expect(image.kind == .image)
        #expect(image.fileName == "stdin.png")
        #expect(image.contentType == "image/png")
        #expect(try fixture.copy(image.storedName) == Samples.png)

        let textFixture = try Self.fixture(standardInput: Samples.text)
        defer { textFixture.remove() }
        let text = try #require(try await textFixture.load([.standardInput], inlineText: 8).first)
        #expect(text.kind == .file)
        #expect(text.fileName == "stdin.txt")
        #expect(text.contentType == "text/plain")
        #expect(try textFixture.copies() == [text.storedName])
    }

    @Test("standard input whose writer stalls meets the deadline; empty standard input is an invalid item")
    func standardInputStallAndEmpty() async throws {
        let (stalled, stalledWriter) = try Self.fixtureWithPipe()
        defer {
            close(stalledWriter)
            stalled.remove()
        }
        #expect(
            await stalled.loadError([.standardInput], timeout: .milliseconds(200))
                == .deadlineExceeded(item: "standard input", seconds: 0.2))

        let empty = try Self.fixture(standardInput: [])
        defer { empty.remove() }
        guard case .invalidItem(let item, _) = await empty.loadError([.standardInput]) else {
            Issue.record("empty standard input was accepted")
            return
        }
        #expect(item == "standard input")
        #expect(try empty.copies().isEmpty)
    }

    @Test("standard input that is a ZIP is refused naming the type, and its copy is removed")
    func standardInputUnsupported() async throws {
        let fixture = try Self.fixture(standardInput: Samples.zip)
        defer { fixture.remove() }
        #expect(
            await fixture.loadError([.standardInput])
                == .unsupportedType(item: "standard input", contentType: "application/zip", accepted: Samples.demoTypes)
        )
        #expect(try fixture.copies().isEmpty)
    }

    // MARK: - Helpers

    /// A fixture whose standard input is the reading end of a fresh pipe;
    /// returns the writing end. The reading end lives as long as the test process.
    private static func fixtureWithPipe() throws -> (IntakeFixture, Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        return (try IntakeFixture(standardInput: ends[0]), ends[1])
    }

    /// A fixture whose standard input is a pipe that delivers `bytes`, then ends.
    private static func fixture(standardInput bytes: [UInt8]) throws -> IntakeFixture {
        let (fixture, writer) = try fixtureWithPipe()
        writeAll(bytes, to: writer)
        close(writer)
        return fixture
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    private static func writeAll(_ bytes: [UInt8], toPath path: String) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        writeAll(bytes, to: fd)
        close(fd)
    }
}
