import Foundation
import ShareKitHTTPInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Testing

/// A second process resumes the upload of a first one killed with SIGKILL.
@Suite("uploads: resumption by another process")
struct CrossProcessResumeTests {
    @Test(
        "after SIGKILL following part 3, a second process resumes from the record; nothing the first saw acknowledged is sent again",
        arguments: [1, 2])
    func resumeAfterKill(partsInFlight: Int) async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("killed.bin", size: UploadFixture.partSize * 8 + 77)

        let first = try fixture.helperUpload(
            source, ["--pause-after-part", "3", "--parts-in-flight", String(partsInFlight)])
        let created = try #require(first.waitForLine { $0.hasPrefix("created ") })
        let id = String(created.split(separator: " ")[1])
        var seen: [String] = []
        #expect(
            first.waitForLine {
                seen.append($0)
                return $0 == "paused"
            } != nil)
        first.kill(SIGKILL)
        let killed = first.finish()
        #expect(killed.status == 128 + SIGKILL)
        seen += killed.stdout.split(separator: "\n").map(String.init)
        let acknowledged = Set(seen.compactMap { $0.hasPrefix("part ") ? Int($0.dropFirst(5)) : nil })

        let second = try fixture.helperUpload(source)
        let outcome = second.finish()
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let resumed = try #require(lines.first { $0.hasPrefix("resumed \(id) ") }, "\(lines)")
        let missing = resumed.split(separator: " ")[2].split(separator: ",").compactMap { Int($0) }
        #expect(!missing.isEmpty && missing.last == 9, "\(missing)")
        #expect(acknowledged.isDisjoint(with: missing), "acknowledged \(acknowledged), sent again \(missing)")
        #expect(Set(1...3).isDisjoint(with: missing))
        #expect(lines.contains("done \(id) \(try fixture.sha256(of: source))"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("created ") })
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)

        let puts = UploadFixture.lines(fixture.stopServer(), containing: "PUT /api/v1/uploads/")
        // A PUT the SIGKILL cut off mid-body is logged "disconnected", with no status.
        let cut = puts.filter { $0.contains(" disconnected") }
        #expect(puts.allSatisfy { $0.contains(" 200 ") || $0.contains(" disconnected") }, "\(puts)")
        #expect(cut.count <= partsInFlight - 1, "\(puts)")
        if partsInFlight == 1 {
            // Stopped between parts (after part 3's answer): the server saw
            // 3 + 6 PUTs, and exactly parts 4 to 9 were missing.
            #expect(lines.contains("resumed \(id) 4,5,6,7,8,9"), "\(lines)")
            #expect(puts.count == 9, "\(puts)")
        } else {
            // The part beside part 3 (4 or 5) may or may not have arrived
            // before the kill; at most that one reached the server twice.
            #expect(puts.count >= 9 && puts.count <= 10, "\(puts)")
        }
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
