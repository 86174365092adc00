import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The quota of unfinished uploads per user and a full disk, against a real
/// `share-server` process.
@Suite("reference server: upload quota and a full disk")
struct QuotaAndStorageTests {
    @Test(
        "createUpload over upload_pending_bytes_per_user is 429 upload_quota_exceeded naming the limit",
        arguments: ServerEngine.allCases)
    func quota(engine: ServerEngine) async throws {
        var seed = UploadFlow.seed(partSize: 1 << 20, maxBytes: 8 << 20)
        var limits = seed["limits"] as? [String: Any] ?? [:]
        limits["upload_pending_bytes_per_user"] = 20 << 20
        seed["limits"] = limits
        let server = try await ServerProcess.start(engine, seed: seed)
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let first = try await declare(alex, size: 8 << 20)
        let second = try await declare(alex, size: 8 << 20)
        #expect(first.status == 201 && second.status == 201)
        let third = try await declare(alex, size: 8 << 20)
        #expect(third.status == 429)
        #expect(third.code == "upload_quota_exceeded")
        #expect(third.headers["content-type"] == "application/problem+json")
        let detail = third.object["detail"] as? String ?? ""
        #expect(detail.contains("upload_pending_bytes_per_user") && detail.contains("\(20 << 20)"), "\(detail)")
        #expect(Int(third.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Smaller files still fit; another user has a quota of their own.
        #expect(try await declare(alex, size: 4 << 20).status == 201)
        let sam = try await UploadFlow.client(server, "sam")
        #expect(try await declare(sam, size: 8 << 20).status == 201)
        // Aborting frees the bytes.
        let id = try #require(first.object["upload_id"] as? String)
        #expect(try await alex.send("DELETE", "/api/v1/uploads/\(id)").status == 204)
        #expect(try await declare(alex, size: 8 << 20).status == 201)
    }

    @Test(
        "the default quota: ten uploads of 100 MiB are declared, the eleventh is refused",
        arguments: ServerEngine.allCases)
    func defaultQuota(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        for n in 1...10 {
            let created = try await declare(alex, size: 100 << 20)
            #expect(created.status == 201, "upload \(n): \(created.text)")
        }
        let refused = try await declare(alex, size: 100 << 20)
        #expect(refused.status == 429)
        #expect(refused.code == "upload_quota_exceeded")
    }

    @Test(
        "a full disk answers 507 insufficient_storage, keeps the upload resumable and harms nothing committed",
        .enabled(if: Tmpfs.canMount, Tmpfs.skipReason), arguments: ServerEngine.allCases)
    func fullDisk(engine: ServerEngine) async throws {
        let disk = try await SmallDisk(engine, partSize: 64 << 10)
        defer { disk.close() }
        let (server, uploads, partSize) = (disk.server, disk.uploads, disk.partSize)
        let alex = try await UploadFlow.client(server, "alex")

        // Committed before the disk fills: a complete upload attached to a message.
        let kept = UploadFlow.bytes(3 * partSize + 100, seed: 1)
        let keptID = try await UploadFlow.uploadWhole(alex, kept, partSize: partSize)
        let sent = try await UploadFlow.message(alex, "/api/v1/threads/t1/messages", attachments: [keptID])
        #expect(sent.status == 201)
        let keptFiles = try partFiles(server, keptID)

        let filler = uploads + "/filler"
        #expect(Tmpfs.fill(filler) > 0)
        let data = UploadFlow.bytes(2 * partSize + 10, seed: 2)
        let created = try await UploadFlow.create(alex, data)
        #expect(created.status == 201)
        let id = try #require(created.object["upload_id"] as? String)
        let full = try await UploadFlow.put(alex, id, 1, UploadFlow.part(data, 1, partSize: partSize))
        #expect(full.status == 507, "\(full.text)")
        #expect(full.code == "insufficient_storage")
        #expect(full.headers["content-type"] == "application/problem+json")
        #expect(full.headers["retry-after"] == "30")
        #expect(!server.log.contains(" 500"))

        // Nothing committed is harmed; the new upload is pending with no part.
        #expect(try partFiles(server, keptID) == keptFiles)
        let list = try await alex.send("GET", "/api/v1/threads/t1/messages")
        let attachments = (list.object["messages"] as? [[String: Any]] ?? []).flatMap {
            $0["attachments"] as? [[String: Any]] ?? []
        }
        #expect(attachments.map { $0["upload_id"] as? String } == [keptID])
        let status = try await alex.send("GET", "/api/v1/uploads/\(id)")
        #expect(status.object["upload_state"] as? String == "pending")
        #expect(status.object["received_parts"] as? [Int] == [])

        // Space comes back: the same upload resumes and completes.
        try FileManager.default.removeItem(atPath: filler)
        for n in 1...3 {
            let part = try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: partSize))
            #expect(part.status == 200, "part \(n): \(part.text)")
        }
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200, "\(done.text)")
        #expect(done.object["upload_state"] as? String == "complete")
    }

    @Test(
        "a part that fills the disk half way is 507 with Retry-After: 30, leaves no file, and is taken once space is back",
        .enabled(if: Tmpfs.canMount, Tmpfs.skipReason), arguments: ServerEngine.allCases)
    func diskFillsDuringPart(engine: ServerEngine) async throws {
        let disk = try await SmallDisk(engine, partSize: 512 << 10)
        defer { disk.close() }
        let (server, uploads, partSize) = (disk.server, disk.uploads, disk.partSize)
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(partSize + 100, seed: 3)
        let created = try await UploadFlow.create(alex, data)
        #expect(created.status == 201)
        let id = try #require(created.object["upload_id"] as? String)

        // Room for the part's first 128 KiB: its writes start, then the disk is full.
        let filler = uploads + "/filler"
        #expect(Tmpfs.fill(filler, leaving: 128 << 10) > 0)
        let full = try await UploadFlow.put(alex, id, 1, UploadFlow.part(data, 1, partSize: partSize))
        #expect(full.status == 507, "\(full.text)")
        #expect(full.code == "insufficient_storage")
        #expect(full.headers["content-type"] == "application/problem+json")
        #expect(full.headers["retry-after"] == "30")
        #expect(UploadFlow.files(server, id).isEmpty, "\(UploadFlow.files(server, id))")
        #expect(try await UploadFlow.receivedParts(alex, id) == [])

        try FileManager.default.removeItem(atPath: filler)
        for n in 1...2 {
            let part = try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: partSize))
            #expect(part.status == 200, "part \(n): \(part.text)")
        }
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.object["upload_state"] as? String == "complete", "\(done.text)")
    }

    /// createUpload of a file of `size` bytes (the digest is never checked: no part is sent).
    private func declare(_ client: TestClient, size: Int) async throws -> TestClient.Response {
        try await client.send(
            "POST", "/api/v1/uploads",
            json: [
                "file_name": "big.txt", "content_type": "text/plain", "size": size,
                "sha256": String(repeating: "ab", count: 32),
            ])
    }

    /// The part files of an upload with their contents.
    private func partFiles(_ server: ServerProcess, _ uploadID: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in UploadFlow.files(server, uploadID) {
            files[name] = try Data(
                contentsOf: URL(fileURLWithPath: UploadFlow.directory(server, uploadID) + "/" + name))
        }
        return files
    }
}

/// A share-server whose uploads folder is a 2 MiB tmpfs: the disk the
/// full-disk tests fill. `close()` stops the server and unmounts it.
private struct SmallDisk {
    let directory: TemporaryDirectory
    /// The uploads folder, on the tmpfs.
    let uploads: String
    /// The server's part size.
    let partSize: Int
    let server: ServerProcess

    init(_ engine: ServerEngine, partSize: Int) async throws {
        directory = try TemporaryDirectory(prefix: "share-server-full")
        uploads = directory.file("server.db.uploads")
        self.partSize = partSize
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: false)
        try Tmpfs.mount(at: uploads, bytes: 2 << 20)
        do {
            server = try await ServerProcess.start(
                engine, seed: UploadFlow.seed(partSize: partSize), directory: directory)
        } catch {
            Tmpfs.unmount(uploads)
            directory.remove()
            throw error
        }
    }

    func close() {
        server.stop(removeFiles: false)
        Tmpfs.unmount(uploads)
        directory.remove()
    }
}
