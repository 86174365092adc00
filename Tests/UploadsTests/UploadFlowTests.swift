import Foundation
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitServerAPIInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Testing

/// Uploads against a real `share-server` over loopback with 16 KiB parts.
@Suite("uploads: create, parts, complete, refusals, cancel, budget")
struct UploadFlowTests {
    static let unlimited = UploadLimits(fileMaxUploadBytes: 64 * 1024 * 1024)

    @Test(
        "every part goes once with its digest, one or several at a time; the server's SHA-256 is the file's; progress never goes back and ends at the size",
        arguments: [1, 2, 3])
    func everyPartOnce(partsInFlight: Int) async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("ten.bin", size: UploadFixture.partSize * 9 + 1234)
        let progress = Collector<UploadProgress>()
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader(partsInFlight: partsInFlight) { events.append($0) }.upload(
            source, limits: Self.unlimited, budget: nil, progress: { progress.append($0) }, cancellation: nil)
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        let status = try await fixture.getUpload(done.uploadID)
        #expect(status.object["upload_state"] as? String == "complete")

        let acknowledged = progress.all.map(\.acknowledgedBytes)
        #expect(acknowledged == acknowledged.sorted(), "acknowledged bytes never go back")
        #expect(acknowledged.last == source.size)
        #expect(progress.all.allSatisfy { $0.totalBytes == source.size })
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)

        let acknowledgedParts = events.all.compactMap { event -> Int? in
            if case .partAcknowledged(_, let part) = event { return part }
            return nil
        }
        if partsInFlight == 1 {
            #expect(acknowledgedParts == Array(1...10), "one at a time: in order")
        } else {
            #expect(acknowledgedParts.sorted() == Array(1...10), "each part once: \(acknowledgedParts)")
        }

        // The log names routes, not ids: one upload, so every PUT is one of its parts.
        let puts = UploadFixture.lines(fixture.stopServer(), containing: "PUT /api/v1/uploads/")
        #expect(puts.count == 10, "\(puts)")
        #expect(puts.allSatisfy { $0.contains(" 200 ") }, "\(puts)")
        // Nine whole parts and the short last one; with parts in flight the
        // log has them in the order they were answered, not in part order.
        #expect(puts.filter { $0.contains(" in=16384 ") }.count == 9, "\(puts)")
        #expect(puts.filter { $0.contains(" in=1234 ") }.count == 1, "\(puts)")
        if partsInFlight == 1 { #expect(puts.last?.contains(" in=1234 ") == true, "\(puts)") }
    }

    @Test("with two parts in flight the second part is on its way before the first is answered")
    func secondPartBeforeFirstAnswer() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("overlap.bin", size: UploadFixture.partSize * 6)
        // Part 1's request waits until part 2's has started: one part at a
        // time would wait out the limit and fail here.
        let gate = PartGate(inner: fixture.signed, held: 1, until: 2, limit: .seconds(20))
        let done = try await fixture.uploader(client: gate, partsInFlight: 2).upload(
            source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        #expect(gate.timedOut == false, "part 2 never started while part 1 was held")
        #expect(gate.mostInFlight == 2, "never more parts at once than asked for")
        let puts = UploadFixture.lines(fixture.stopServer(), containing: "PUT /api/v1/uploads/")
        #expect(puts.count == 6 && puts.allSatisfy { $0.contains(" 200 ") }, "\(puts)")
    }

    @Test("the part size learned from one upload is remembered: the next uploader reads the file once")
    func onePassOnceThePartSizeIsKnown() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        func passes(_ name: String) async throws -> [Int64?] {
            let source = try fixture.file(name, size: UploadFixture.partSize * 3 + 5)
            let events = Collector<StreamingUploader.Event>()
            let done = try await fixture.uploader { events.append($0) }.upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
            #expect(done.sha256 == (try fixture.sha256(of: source)))
            return events.all.compactMap { event -> Int64?? in
                if case .hashingPass(let size) = event { return .some(size) }
                return nil
            }
        }
        #expect(try await passes("first.bin") == [nil, Int64(UploadFixture.partSize)], "unknown, then learned")
        #expect(fixture.records.lastPartSize(serverOrigin: fixture.origin) == Int64(UploadFixture.partSize))
        #expect(try await passes("second.bin") == [Int64(UploadFixture.partSize)], "one pass")
    }

    @Test("an empty file is one empty part and completes")
    func emptyFile() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("empty.txt", size: 0, contentType: "text/plain")
        let done = try await fixture.uploader().upload(
            source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        #expect(done.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("a file over file_max_upload_bytes is refused before any request, naming the limit")
    func oversizeRefusedBeforeSending() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("big.bin", size: 5000)
        let error = await #expect(throws: APIError.self) {
            try await fixture.uploader().upload(
                source, limits: UploadLimits(fileMaxUploadBytes: 4096), budget: nil, progress: nil,
                cancellation: nil)
        }
        guard case .refused(let refusal) = error else {
            Issue.record("expected rejected, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == "too_large")
        #expect(refusal.message.contains("file_max_upload_bytes") && refusal.message.contains("4096"))
        #expect(UploadFixture.lines(fixture.stopServer(), containing: "/api/v1/uploads").isEmpty)
    }

    @Test("a content type the server does not accept is rejected as unsupported_type, with no record kept")
    func unsupportedType() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("picture.heic", size: 100, contentType: "image/heic")
        let error = await #expect(throws: APIError.self) {
            try await fixture.uploader().upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .refused(let refusal) = error else {
            Issue.record("expected rejected, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == "unsupported_type")
        #expect(error?.isRetryable == false)
    }

    @Test("a file that changed since it was described is refused as fileChanged")
    func changedFile() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        var source = try fixture.file("changing.bin", size: 100)
        source.identity.size = 99
        await #expect(throws: APIError.self) {
            try await fixture.uploader().upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        #expect(UploadFixture.lines(fixture.stopServer(), containing: "/api/v1/uploads").isEmpty)
    }

    @Test("cancelling mid-upload aborts the upload on the server (DELETE) and throws cancelled")
    func cancelAborts() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("cancel.bin", size: UploadFixture.partSize * 20)
        let cancellation = HTTPCancellation()
        let created = Collector<String>()
        let uploader = fixture.uploader { event in
            if case .created(let id, _) = event { created.append(id) }
            if case .partAcknowledged(_, 3) = event { cancellation.cancel() }
        }
        let error = await #expect(throws: APIError.self) {
            try await uploader.upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: cancellation)
        }
        #expect(error == .cancelled)
        let id = try #require(created.all.first)
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)
        let status = try await fixture.getUpload(id)
        #expect(status.object["upload_state"] as? String != "pending", "\(status)")
        let log = fixture.stopServer()
        #expect(UploadFixture.lines(log, containing: "DELETE /api/v1/uploads/{id} 204").count == 1, "\(log)")
        #expect(UploadFixture.lines(log, containing: "/complete").isEmpty)
    }

    @Test("the budget running out hands the upload off, keeps the record, and a later call resumes it")
    func budgetHandsOff() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("slow.bin", size: UploadFixture.partSize * 12)
        // The budget is the only way out of the stall, however long a loaded
        // machine took to get there (a short budget against a steady pace
        // once ran out before the upload was even created).
        let slow = fixture.uploader(client: StalledAfterFirstPart(inner: fixture.signed))
        let error = await #expect(throws: APIError.self) {
            try await slow.upload(
                source, limits: Self.unlimited, budget: .seconds(3), progress: nil, cancellation: nil)
        }
        guard case .retryable(let retry) = error, case .budget(let id?) = retry.kind else {
            Issue.record("expected handedOff with an id, got \(String(describing: error))")
            return
        }
        let record = try #require(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin))
        #expect(record.uploadID == id)
        #expect(error?.isRetryable == true)

        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader { events.append($0) }.upload(
            source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        #expect(done.uploadID == id)
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        let resumed = events.all.compactMap { event -> [Int]? in
            if case .resumed(_, let missing) = event { return missing }
            return nil
        }
        let missing = try #require(resumed.first)
        #expect(missing == Array(2...12), "part 1 went before the stall")
        #expect(!events.all.contains { if case .created = $0 { return true } else { return false } })
    }

    @Test(
        "a part whose connection is cut is resumed through getUpload; only missing parts are sent again, one or two at a time",
        arguments: [1, 2])
    func resumeAfterCutPart(partsInFlight: Int) async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("cut.bin", size: UploadFixture.partSize * 6)
        let events = Collector<StreamingUploader.Event>()
        let flaky = flakyClient(fixture.signed, failOnce: ["/parts/4"])
        let uploader = fixture.uploader(
            client: flaky, retry: .init(delays: [.milliseconds(10)]), partsInFlight: partsInFlight,
            observer: { events.append($0) })
        let done = try await uploader.upload(
            source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        let missing = try #require(
            events.all.compactMap { event -> [Int]? in
                if case .resumed(_, let parts) = event { return parts }
                return nil
            }.first)
        if partsInFlight == 1 {
            #expect(events.all.contains(.resumed(uploadID: done.uploadID, missingParts: [4, 5, 6])), "\(events.all)")
        } else {
            // Part 5 may have been in flight beside the cut part 4 and arrived.
            #expect(missing.first == 4 && missing.last == 6 && Set(missing).isSubset(of: [4, 5, 6]), "\(missing)")
        }
        let acknowledged = events.all.compactMap { event -> Int? in
            if case .partAcknowledged(_, let part) = event { return part }
            return nil
        }
        #expect(acknowledged.sorted() == [1, 2, 3, 4, 5, 6], "each part acknowledged once: \(acknowledged)")
        // The cut part never reached the server: six PUTs in all, none repeated.
        let log = fixture.stopServer()
        #expect(UploadFixture.lines(log, containing: "PUT /api/v1/uploads/").count == 6, "\(log)")
        #expect(UploadFixture.lines(log, containing: "GET /api/v1/uploads/").count == 1)
    }

    @Test("passing failures that outlast the retries are retryable and keep the record")
    func retriesExhausted() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("flaky.bin", size: UploadFixture.partSize * 2)
        let flaky = flakyClient(fixture.signed, failOnce: ["/parts/2", "/complete"])
        // No retries at all: the first cut ends the call.
        let error = await #expect(throws: APIError.self) {
            try await fixture.uploader(client: flaky, retry: .init(delays: [])).upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .retryable = error else {
            Issue.record("expected retryable, got \(String(describing: error))")
            return
        }
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) != nil)
    }
}
