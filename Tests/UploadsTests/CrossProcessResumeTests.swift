import Foundation
import HTTPInterfaceTesting
import SystemTesting
import TestSupport
import Testing
import Uploads
import UploadsInterface

/// A second process resumes the upload of a first one killed with SIGKILL.
@Suite("uploads: resumption by another process")
struct CrossProcessResumeTests {
    @Test("after SIGKILL following part 3, a second process resumes from the record; parts 1-3 are not sent again")
    func resumeAfterKill() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("killed.bin", size: UploadFixture.partSize * 8 + 77)

        let first = try fixture.helperUpload(source, ["--pause-after-part", "3"])
        let created = try #require(first.waitForLine { $0.hasPrefix("created ") })
        let id = String(created.split(separator: " ")[1])
        #expect(first.waitForLine { $0 == "paused" } != nil)
        first.kill(SIGKILL)
        #expect(first.finish().status == 128 + SIGKILL)

        let second = try fixture.helperUpload(source)
        let outcome = second.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("resumed \(id) 4,5,6,7,8,9"), "\(lines)")
        #expect(lines.contains("done \(id) \(try fixture.sha256(of: source))"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("created ") })
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)

        // The first process was stopped between parts (after part 3's answer), so
        // the server saw 3 + 6 PUTs: parts 1-3 were not sent again.
        let puts = UploadFixture.lines(fixture.stopServer(), containing: "PUT /api/v1/uploads/")
        #expect(puts.count == 9, "\(puts)")
        #expect(puts.allSatisfy { $0.contains(" 200 ") })
    }

    @Test("a record for another version of the file (mtime changed) is not resumed: a new upload is made")
    func changedFileStartsOver() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("v1.bin", size: UploadFixture.partSize * 3)
        let record = UploadRecord(
            serverOrigin: fixture.origin, uploadID: "up_stale", identity: source.identity, partSize: 16_384,
            partsCount: 3, sha256: String(repeating: "0", count: 64), partDigests: ["a", "b", "c"])
        try fixture.records.save(record)
        var other = source.identity
        other.modificationTimeNanoseconds += 1
        #expect(try fixture.records.record(for: other, serverOrigin: fixture.origin) == nil)
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil, "removed")
    }

    @Test("records of files that were moved away (an inbox entry taken over) are pruned; others stay")
    func pruneMovedFiles() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let kept = try fixture.file("kept.bin", size: 100)
        let moved = try fixture.file("moved.bin", size: 100)
        for source in [kept, moved] {
            try fixture.records.save(
                UploadRecord(
                    serverOrigin: fixture.origin, uploadID: "up_\(source.fileName)", identity: source.identity,
                    partSize: 16_384, partsCount: 1, sha256: String(repeating: "0", count: 64), partDigests: ["a"]))
        }
        try FileManager.default.removeItem(atPath: moved.path)
        #expect(try fixture.records.pruneRecordsOfMissingFiles() == 1)
        #expect(try fixture.records.record(for: kept.identity, serverOrigin: fixture.origin)?.uploadID == "up_kept.bin")
        #expect(try fixture.records.pruneRecordsOfMissingFiles() == 0)
    }
}
