import Foundation
import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import ShareKitTestSupport

/// The upload and message requests that UploadTests and MessageTests share,
/// spoken exactly as a client would (SHA-256 hex of the file at create,
/// `Content-Digest: sha-256=:…:` on each part).
enum UploadFlow {
    static let crypto: any CryptoProvider = OpenSSLCryptoProvider()

    /// Passwords of the people in ``seed(partSize:maxBytes:maxAttachments:extra:)``.
    static let passwords = ["alex": "alex-pass-1234", "sam": "sam-pass-1234", "robin": "robin-pass-1234"]

    /// A small instance: chat `c1` (alex and sam write, robin reads) with
    /// thread `t1`, forum `c2` (same access), and `c3` only alex can see;
    /// parts of `partSize` bytes so tests move few bytes.
    static func seed(
        partSize: Int = 1024, maxBytes: Int = 8 << 20, maxAttachments: Int = 3, extra: [String: Any] = [:]
    ) -> [String: Any] {
        var seed: [String: Any] = [
            "users": passwords.keys.sorted().map { ["username": $0, "password": passwords[$0]!] },
            "spaces": [
                [
                    "id": "s1", "name": "server",
                    "channels": [
                        [
                            "id": "c1", "name": "Gateway", "kind": "chat", "readers": ["alex", "sam", "robin"],
                            "writers": ["alex", "sam"],
                        ],
                        [
                            "id": "c2", "name": "Ideas", "kind": "forum", "readers": ["alex", "sam", "robin"],
                            "writers": ["alex", "sam"],
                        ],
                        ["id": "c3", "name": "Private", "kind": "chat", "readers": ["alex"], "writers": ["alex"]],
                    ],
                ]
            ],
            "threads": [["id": "t1", "channel_id": "c1", "title": "resume the gateway"]],
            "limits": [
                "file_max_upload_bytes": maxBytes, "message_max_attachments": maxAttachments,
                "upload_part_size": partSize,
            ],
        ]
        for (key, value) in extra { seed[key] = value }
        return seed
    }

    /// A client logged in as one of the seed's people.
    static func client(_ server: ServerProcess, _ username: String) async throws -> TestClient {
        let client = try TestClient(origin: server.origin)
        let login = try await client.login(username, passwords[username] ?? "")
        guard login.status == 201 else { throw ServerProcessError("login \(username): \(login.status) \(login.text)") }
        return client
    }

    /// Lowercase hex SHA-256, as createUpload wants it.
    static func sha256Hex(_ data: Data) throws -> String {
        try crypto.sha256(contentsOf: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Standard base64 of the SHA-256 of a body: the value inside `Content-Digest`.
    static func sha256Base64(_ data: Data) throws -> String {
        Data(try crypto.sha256(contentsOf: data)).base64EncodedString()
    }

    /// The `Content-Digest` value of a body.
    static func contentDigest(_ data: Data) throws -> String {
        "sha-256=:" + (try sha256Base64(data)) + ":"
    }

    /// Deterministic bytes from a seed (not random enough for crypto, plenty for files).
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var generator = SeededRandom(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            var word = generator.next()
            for _ in 0..<8 where i < count {
                bytes[i] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                i += 1
            }
        }
        return Data(bytes)
    }

    /// createUpload for `data`.
    static func create(
        _ client: TestClient, _ data: Data, fileName: String = "notes.txt", contentType: String = "text/plain",
        sha256: String? = nil
    ) async throws -> TestClient.Response {
        try await client.send(
            "POST", "/api/v1/uploads",
            json: [
                "file_name": fileName, "content_type": contentType, "size": data.count,
                "sha256": try sha256 ?? sha256Hex(data),
            ])
    }

    /// The bytes of part `n` (from 1) of `data`.
    static func part(_ data: Data, _ n: Int, partSize: Int) -> Data {
        let start = (n - 1) * partSize
        return data.subdata(in: start..<min(data.count, start + partSize))
    }

    /// uploadPart with the digest of `body` unless another digest is given.
    static func put(
        _ client: TestClient, _ uploadID: String, _ n: Int, _ body: Data, digestOf: Data? = nil
    ) async throws -> TestClient.Response {
        try await client.send(
            "PUT", "/api/v1/uploads/\(uploadID)/parts/\(n)", body: body,
            headers: [
                "Content-Digest": try contentDigest(digestOf ?? body), "Content-Type": "application/octet-stream",
            ])
    }

    /// The parts getUpload reports.
    static func receivedParts(_ client: TestClient, _ uploadID: String) async throws -> [Int] {
        let response = try await client.send("GET", "/api/v1/uploads/\(uploadID)")
        return response.object["received_parts"] as? [Int] ?? []
    }

    /// Creates, sends and completes an upload; returns its id.
    static func uploadWhole(
        _ client: TestClient, _ data: Data, partSize: Int = 1024, contentType: String = "text/plain"
    ) async throws -> String {
        let created = try await create(client, data, contentType: contentType)
        guard created.status == 201, let id = created.object["upload_id"] as? String else {
            throw ServerProcessError("createUpload: \(created.status) \(created.text)")
        }
        let count = created.object["parts_count"] as? Int ?? 1
        for n in 1...count {
            let sent = try await put(client, id, n, part(data, n, partSize: partSize))
            guard sent.status == 200 else { throw ServerProcessError("part \(n): \(sent.status) \(sent.text)") }
        }
        let done = try await client.send("POST", "/api/v1/uploads/\(id)/complete")
        guard done.status == 200 else { throw ServerProcessError("complete: \(done.status) \(done.text)") }
        return id
    }

    /// Where the server keeps an upload's parts (`--db PATH` → `PATH.uploads/<id>`).
    static func directory(_ server: ServerProcess, _ uploadID: String) -> String {
        server.databasePath + ".uploads/" + uploadID
    }

    /// The file names in an upload's directory (empty when it is gone).
    static func files(_ server: ServerProcess, _ uploadID: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory(server, uploadID))) ?? []).sorted()
    }

    /// createMessage with the given members.
    static func message(
        _ client: TestClient, _ path: String, id: String = UUID().uuidString.lowercased(), text: String = "hello",
        attachments: [String] = []
    ) async throws -> TestClient.Response {
        try await client.send("POST", path, json: ["client_msg_id": id, "text": text, "attachments": attachments])
    }
}
