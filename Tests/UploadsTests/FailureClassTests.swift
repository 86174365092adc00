import Foundation
import ShareKitClientAssembly
import ShareKitHTTPInterface
import ShareKitHTTPInterfaceTesting
import ShareKitServerAPIInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Testing

/// Each failure class of an upload maps to its outcome.
@Suite("uploads: failure classes")
struct FailureClassTests {
    static let unlimited = UploadLimits(fileMaxUploadBytes: 64 * 1024 * 1024)

    @Test("a 503 and a 429 on a part are retried after getUpload; the upload completes")
    func serverErrorsRetried() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("busy.bin", size: UploadFixture.partSize * 3)
        let flaky = flakyClient(fixture.signed, answer: ["/parts/2": [503, 429]])
        let events = Collector<StreamingUploader.Event>()
        let done = try await fixture.uploader(
            client: flaky, retry: .init(delays: [.milliseconds(10), .milliseconds(10)]),
            observer: { events.append($0) }
        ).upload(source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        #expect(events.all.filter { if case .retrying = $0 { return true } else { return false } }.count == 2)
    }

    @Test("a 503 with Retry-After: 7 on a part: the upload waits 7 s, then sends the missing part and completes")
    func retryAfterHonoured() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("later.bin", size: UploadFixture.partSize * 2)
        let flaky = flakyClient(fixture.signed, answer: ["/parts/2": [503]], retryAfter: "7")
        let events = Collector<StreamingUploader.Event>()
        let start = ContinuousClock.now
        let done = try await fixture.uploader(
            client: flaky, retry: .init(delays: [.milliseconds(10)]), observer: { events.append($0) }
        ).upload(source, limits: Self.unlimited, budget: .seconds(120), progress: nil, cancellation: nil)
        let elapsed = ContinuousClock.now - start
        #expect(done.sha256 == (try fixture.sha256(of: source)))
        let waits = events.all.compactMap { event -> Duration? in
            if case .retrying(_, let after) = event { return after }
            return nil
        }
        #expect(waits == [.seconds(7)], "the server's wait, not the policy's 10 ms")
        #expect(elapsed >= .seconds(7))
        let parts = events.all.filter { if case .partAcknowledged = $0 { return true } else { return false } }
        #expect(parts.count == 2, "part 1 once, part 2 after the wait")
    }

    @Test("a Retry-After beyond an hour is cut to an hour")
    func retryAfterCapped() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("capped.bin", size: 100)
        let flaky = flakyClient(fixture.signed, answer: ["/complete": [503]], retryAfter: "10000000000000000")
        let events = Collector<StreamingUploader.Event>()
        // The wait is ended by cancelling once it is announced, not by a
        // short budget: a budget is wall-clock time, and on a loaded machine
        // it ran out before the 503 came and no wait was announced at all.
        let cancellation = HTTPCancellation()
        let outcome = await #expect(throws: APIError.self) {
            try await fixture.uploader(
                client: flaky, retry: .init(delays: [.milliseconds(10)]),
                observer: { event in
                    events.append(event)
                    if case .retrying = event { cancellation.cancel() }
                }
            )
            .upload(source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: cancellation)
        }
        guard case .cancelled = outcome else {
            Issue.record("expected the cancellation to end the wait, got \(String(describing: outcome))")
            return
        }
        let waits = events.all.compactMap { event -> Duration? in
            if case .retrying(_, let after) = event { return after }
            return nil
        }
        #expect(waits == [.seconds(3600)])
    }

    @Test("5xx beyond the retries is retryable; any other 4xx is rejected with the server's code")
    func classes() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("classes.bin", size: 100)
        let busy = flakyClient(fixture.signed, answer: ["/complete": [500, 502]])
        let retryable = await #expect(throws: APIError.self) {
            try await fixture.uploader(client: busy, retry: .init(delays: [.milliseconds(5)])).upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .retryable = retryable else {
            Issue.record("expected retryable, got \(String(describing: retryable))")
            return
        }
        let forbidden = flakyClient(fixture.signed, answer: ["/complete": [403]])
        let rejected = await #expect(throws: APIError.self) {
            try await fixture.uploader(client: forbidden).upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .refused(let refusal) = rejected else {
            Issue.record("expected rejected, got \(String(describing: rejected))")
            return
        }
        #expect(refusal.code == "test_403")
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)
    }

    @Test("no child session: sessionUnavailable, and no upload is created")
    func noSession() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        try fixture.storage.delete(.child)
        let source = try fixture.file("nosession.bin", size: 100)
        let error = await #expect(throws: APIError.self) {
            try await fixture.uploader().upload(
                source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .sessionEnded = error else {
            Issue.record("expected sessionEnded, got \(String(describing: error))")
            return
        }
        #expect(UploadFixture.lines(fixture.stopServer(), containing: "/api/v1/uploads").isEmpty)
    }

    @Test("bytes that no longer match their digest (same size and mtime) are refused: digest_mismatch, record dropped")
    func digestMismatch() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("swapped.bin", size: UploadFixture.partSize * 2)
        let path = source.path
        // One part at a time: the changed first part is the only one sent.
        let uploader = fixture.uploader(partsInFlight: 1) { event in
            guard case .created = event else { return }
            // Change the content behind the uploader's back, keeping size and mtime.
            var info = stat()
            stat(path, &info)
            let handle = FileHandle(forWritingAtPath: path)!
            handle.write(Data(repeating: 0x55, count: 10))
            try? handle.close()
            var times = [info.st_atim, info.st_mtim]
            utimensat(AT_FDCWD, path, &times, 0)
        }
        let error = await #expect(throws: APIError.self) {
            try await uploader.upload(source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        guard case .refused(let refusal) = error else {
            Issue.record("expected rejected, got \(String(describing: error))")
            return
        }
        #expect(refusal.code == "digest_mismatch")
        #expect(try fixture.records.record(for: source.identity, serverOrigin: fixture.origin) == nil)
        let puts = UploadFixture.lines(fixture.stopServer(), containing: "PUT /api/v1/uploads/")
        #expect(puts.count == 1 && puts[0].contains(" 422 "), "\(puts)")
    }

    @Test("cancelling the caller's task mid-upload also aborts the upload on the server")
    func taskCancellationAborts() async throws {
        let fixture = try await UploadFixture()
        defer { fixture.close() }
        let source = try fixture.file("task.bin", size: UploadFixture.partSize * 30)
        let reachedPart = AsyncStream<Void>.makeStream()
        let uploader = fixture.uploader { event in
            if case .partAcknowledged(_, 2) = event { reachedPart.continuation.yield() }
            if case .partAcknowledged = event { usleep(20_000) }
        }
        let task = Task {
            try await uploader.upload(source, limits: Self.unlimited, budget: nil, progress: nil, cancellation: nil)
        }
        for await _ in reachedPart.stream { break }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error == .cancelled)
        let log = fixture.stopServer()
        #expect(UploadFixture.lines(log, containing: "DELETE /api/v1/uploads/{id} 204").count == 1, "\(log)")
    }
}
