import Foundation
import ShareKitCryptoInterface
import ShareKitPostgresStore
import ShareKitSQLInterface
import ShareKitSQLiteStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The composite form of an upload's digest (`digest_algorithm`
/// `sha256-composite`): the server completes it from the part digests it
/// verified as the parts arrived, without reading the file again, and still
/// takes the plain whole-file `sha256`.
@Suite("reference server: composite upload digest")
struct CompositeDigestTests {
    static let partSize = 1024

    /// The composite digest of `data` cut at ``partSize``: the SHA-256 of
    /// the parts' SHA-256s concatenated in order, in hex.
    static func composite(_ data: Data, alter part: Int? = nil) throws -> String {
        var concatenated = Data()
        let count = max(1, (data.count + partSize - 1) / partSize)
        for n in 1...count {
            var digest = try UploadFlow.crypto.sha256(contentsOf: UploadFlow.part(data, n, partSize: partSize))
            if n == part { digest[0] ^= 0x01 }
            concatenated.append(contentsOf: digest)
        }
        return try UploadFlow.sha256Hex(concatenated)
    }

    /// createUpload with the composite form.
    static func createComposite(_ client: TestClient, _ data: Data, digest: String, partSize: Int? = partSize)
        async throws -> TestClient.Response
    {
        var body: [String: Any] = [
            "file_name": "big.txt", "content_type": "text/plain", "size": data.count, "sha256": digest,
            "digest_algorithm": "sha256-composite",
        ]
        if let partSize { body["part_size"] = partSize }
        return try await client.send("POST", "/api/v1/uploads", json: body)
    }

    /// Sends every part of `data`.
    static func putAll(_ client: TestClient, _ uploadID: String, _ data: Data) async throws {
        let count = max(1, (data.count + partSize - 1) / partSize)
        for n in 1...count {
            let put = try await UploadFlow.put(client, uploadID, n, UploadFlow.part(data, n, partSize: partSize))
            #expect(put.status == 200, "part \(n): \(put.text)")
        }
    }

    /// Overwrites a stored part on the server's disk with other bytes of
    /// the same length: only a server that reads the part again notices.
    static func damage(_ server: ServerProcess, _ uploadID: String, part: Int) throws {
        let path = server.databasePath + ".uploads/\(uploadID)/part-\(part)"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try Data(original.map { $0 ^ 0xFF }).write(to: URL(fileURLWithPath: path))
    }

    /// How completion checked an upload (`uploads.verified_by`).
    static func verifiedBy(_ server: ServerProcess, _ uploadID: String) throws -> String? {
        let database: any SQLDatabase =
            server.engine == .postgresql
            ? try PostgresDatabase(connection: server.databaseArgument) : try SQLiteDatabase(path: server.databasePath)
        defer { try? database.close() }
        let rows = try database.query("SELECT verified_by FROM uploads WHERE id = ?", [.text(uploadID)])
        return try rows.first?.get("verified_by", as: String?.self)
    }

    @Test("getInstanceLimits lists both digest forms; a seed of [\"sha256\"] lists only the plain one")
    func advertised() async throws {
        let server = try await ServerProcess.start(.sqlite, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let limits = try await alex.send("GET", "/api/v1/instance/limits")
        #expect(limits.object["upload_digest_algorithms"] as? [String] == ["sha256", "sha256-composite"])

        var seed = UploadFlow.seed()
        var seedLimits = seed["limits"] as? [String: Any] ?? [:]
        seedLimits["upload_digest_algorithms"] = ["sha256"]
        seed["limits"] = seedLimits
        let old = try await ServerProcess.start(.sqlite, seed: seed)
        defer { old.stop() }
        let sam = try await UploadFlow.client(old, "sam")
        #expect(
            try await sam.send("GET", "/api/v1/instance/limits").object["upload_digest_algorithms"] as? [String] == [
                "sha256"
            ])
        let data = UploadFlow.bytes(2500, seed: 7)
        let refused = try await Self.createComposite(sam, data, digest: try Self.composite(data))
        #expect(refused.status == 400)
        #expect(refused.code == "invalid_digest")
    }

    @Test(
        "a composite upload completes from the part digests: the file is not read again (a part damaged on disk goes unnoticed, verified_by part_digests)",
        arguments: ServerEngine.allCases)
    func compositeCompletesWithoutReading(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2500, seed: 11)
        let digest = try Self.composite(data)
        let created = try await Self.createComposite(alex, data, digest: digest)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.object["upload_id"] as? String)
        try await Self.putAll(alex, id, data)
        try Self.damage(server, id, part: 2)
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200, "\(done.text)")
        #expect(done.object["sha256"] as? String == digest)
        #expect(done.object["digest_algorithm"] as? String == "sha256-composite")
        #expect(try Self.verifiedBy(server, id) == "part_digests")

        // The message's attachment says which form its sha256 is.
        let message = try await alex.send(
            "POST", "/api/v1/threads/t1/messages",
            json: ["client_msg_id": "composite-1", "text": "big", "attachments": [id]])
        #expect(message.status == 201, "\(message.text)")
        let attachment = ((message.object["message"] as? [String: Any])?["attachments"] as? [[String: Any]])?.first
        #expect(attachment?["sha256"] as? String == digest)
        #expect(attachment?["digest_algorithm"] as? String == "sha256-composite")
    }

    @Test(
        "the plain whole-file sha256 still completes, by reading the parts again (verified_by file; a damaged part is sent again)",
        arguments: ServerEngine.allCases)
    func plainStillReads(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2500, seed: 12)
        let created = try await UploadFlow.create(alex, data)
        let id = try #require(created.object["upload_id"] as? String)
        try await Self.putAll(alex, id, data)
        try Self.damage(server, id, part: 2)
        let damaged = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(damaged.status == 409)
        #expect(damaged.code == "incomplete")
        #expect(try await UploadFlow.put(alex, id, 2, UploadFlow.part(data, 2, partSize: Self.partSize)).status == 200)
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200, "\(done.text)")
        #expect(done.object["sha256"] as? String == (try UploadFlow.sha256Hex(data)))
        #expect(done.object["digest_algorithm"] == nil)
        #expect(try Self.verifiedBy(server, id) == "file")
    }

    @Test(
        "a composite digest with one part digest altered is 422 digest_mismatch, and the upload stays pending",
        arguments: ServerEngine.allCases)
    func wrongComposite(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(3000, seed: 13)
        let created = try await Self.createComposite(alex, data, digest: try Self.composite(data, alter: 2))
        let id = try #require(created.object["upload_id"] as? String)
        try await Self.putAll(alex, id, data)
        let refused = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(refused.status == 422)
        #expect(refused.code == "digest_mismatch")
        let status = try await alex.send("GET", "/api/v1/uploads/\(id)")
        #expect(status.object["upload_state"] as? String == "pending")
        #expect(try Self.verifiedBy(server, id) == nil)
    }

    @Test("createUpload refuses a composite digest without part_size or cut at another part size (400 invalid_digest)")
    func compositeNeedsTheServersPartSize() async throws {
        let server = try await ServerProcess.start(.sqlite, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2500, seed: 14)
        let digest = try Self.composite(data)
        for partSize in [nil, 2048, -1] as [Int?] {
            let refused = try await Self.createComposite(alex, data, digest: digest, partSize: partSize)
            #expect(refused.status == 400, "part_size \(String(describing: partSize))")
            #expect(refused.code == "invalid_digest")
        }
        let unknown = try await alex.send(
            "POST", "/api/v1/uploads",
            json: [
                "file_name": "a.txt", "content_type": "text/plain", "size": 1, "sha256": digest,
                "digest_algorithm": "md5",
            ])
        #expect(unknown.status == 400)
        #expect(unknown.code == "invalid_digest")
        // part_size beside the plain digest is ignored, as by a server that
        // predates both members.
        let plain = try await alex.send(
            "POST", "/api/v1/uploads",
            json: [
                "file_name": "a.txt", "content_type": "text/plain", "size": data.count,
                "sha256": try UploadFlow.sha256Hex(data), "part_size": 2048,
            ])
        #expect(plain.status == 201, "\(plain.text)")
    }
}
