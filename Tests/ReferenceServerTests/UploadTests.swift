import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The upload protocol (docs/protocol.md, "Uploads") against a real `share-server`
/// process: parts with `Content-Digest`, resumption, whole-file check,
/// abort, expiry, limits and ownership. Parts are 1 KiB (the seed's
/// `upload_part_size`) so files of a few parts stay small.
@Suite("reference server: uploads")
struct UploadTests {
    static let partSize = 1024

    @Test(
        "createUpload answers the plan: part_size, parts_count, pending, expires_at a day ahead",
        arguments: ServerEngine.allCases)
    func createAnswersThePlan(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let created = try await UploadFlow.create(alex, UploadFlow.bytes(2500, seed: 1))
        #expect(created.status == 201)
        #expect((created.object["upload_id"] as? String)?.isEmpty == false)
        #expect(created.object["part_size"] as? Int == Self.partSize)
        #expect(created.object["parts_count"] as? Int == 3)
        #expect(created.object["upload_state"] as? String == "pending")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expires = try #require((created.object["expires_at"] as? String).flatMap(formatter.date(from:)))
        #expect(abs(expires.timeIntervalSinceNow - 86_400) < 120)

        let exact = try await UploadFlow.create(alex, UploadFlow.bytes(2048, seed: 2))
        #expect(exact.object["parts_count"] as? Int == 2)
        let empty = try await UploadFlow.create(alex, Data())
        #expect(empty.object["parts_count"] as? Int == 1)
    }

    @Test(
        "parts in order, then complete: 200 with the sha256, files 0600 in a 0700 directory; completing again is the same answer",
        arguments: ServerEngine.allCases)
    func inOrder(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2500, seed: 3)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        for n in 1...3 {
            let sent = try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize))
            #expect(sent.status == 200)
            #expect(sent.object["part"] as? Int == n)
            #expect(sent.object["size"] as? Int == (n < 3 ? 1024 : 452))
        }
        let state = try await alex.send("GET", "/api/v1/uploads/\(id)")
        #expect(state.status == 200)
        #expect(state.object["upload_id"] as? String == id)
        #expect(state.object["upload_state"] as? String == "pending")
        #expect(state.object["size"] as? Int == 2500)
        #expect(state.object["part_size"] as? Int == Self.partSize)
        #expect(state.object["received_parts"] as? [Int] == [1, 2, 3])

        let sha = try UploadFlow.sha256Hex(data)
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200)
        #expect(done.object["upload_id"] as? String == id)
        #expect(done.object["upload_state"] as? String == "complete")
        #expect(done.object["sha256"] as? String == sha)
        let again = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(again.status == 200)
        #expect(again.object["sha256"] as? String == sha)
        #expect(try await alex.send("GET", "/api/v1/uploads/\(id)").object["upload_state"] as? String == "complete")

        #expect(UploadFlow.files(server, id) == ["part-1", "part-2", "part-3"])
        let directory = UploadFlow.directory(server, id)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        let fileMode =
            try FileManager.default.attributesOfItem(atPath: directory + "/part-1")[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test(
        "parts out of order; getUpload lists what arrived, sorted; a part sent again with the same digest is accepted again",
        arguments: ServerEngine.allCases)
    func outOfOrderAndRepeats(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(4000, seed: 4)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        for n in [4, 2] {
            #expect(
                try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize)).status == 200)
        }
        #expect(try await UploadFlow.receivedParts(alex, id) == [2, 4])
        let repeated = try await UploadFlow.put(alex, id, 2, UploadFlow.part(data, 2, partSize: Self.partSize))
        #expect(repeated.status == 200)
        #expect(repeated.object["part"] as? Int == 2)
        for n in [3, 1] {
            #expect(
                try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize)).status == 200)
        }
        #expect(try await UploadFlow.receivedParts(alex, id) == [1, 2, 3, 4])
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200)
        #expect(done.object["sha256"] as? String == (try UploadFlow.sha256Hex(data)))
    }

    @Test(
        "a part whose bytes do not match its Content-Digest is 422 digest_mismatch and not stored",
        arguments: ServerEngine.allCases)
    func partDigestMismatch(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2048, seed: 5)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        let good = UploadFlow.part(data, 2, partSize: Self.partSize)
        var damaged = good
        damaged[damaged.startIndex + 100] ^= 0xFF
        let refused = try await UploadFlow.put(alex, id, 2, damaged, digestOf: good)
        #expect(refused.status == 422)
        #expect(refused.code == "digest_mismatch")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(try await UploadFlow.receivedParts(alex, id) == [])
        #expect(!UploadFlow.files(server, id).contains { $0.hasPrefix("part-2") })

        // A stored part stays stored when a damaged copy of it is refused.
        #expect(try await UploadFlow.put(alex, id, 2, good).status == 200)
        #expect(try await UploadFlow.put(alex, id, 2, damaged, digestOf: good).code == "digest_mismatch")
        #expect(try await UploadFlow.receivedParts(alex, id) == [2])
        #expect(UploadFlow.files(server, id) == ["part-2"])
    }

    @Test(
        "a part of the wrong length is 400 wrong_part_size; part numbers outside 1...parts_count are 400",
        arguments: ServerEngine.allCases)
    func wrongPartSize(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2500, seed: 6)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        let short = try await UploadFlow.put(alex, id, 1, UploadFlow.bytes(1000, seed: 7))
        #expect(short.status == 400)
        #expect(short.code == "wrong_part_size")
        let long = try await UploadFlow.put(alex, id, 3, UploadFlow.bytes(1024, seed: 8))
        #expect(long.status == 400)
        #expect(long.code == "wrong_part_size")
        for n in ["0", "4", "x", "-1"] {
            let response = try await alex.send(
                "PUT", "/api/v1/uploads/\(id)/parts/\(n)", body: UploadFlow.part(data, 1, partSize: Self.partSize),
                headers: [
                    "Content-Digest": try UploadFlow.contentDigest(UploadFlow.part(data, 1, partSize: Self.partSize))
                ])
            #expect(response.status == 400, "part \(n)")
            #expect(response.code == "invalid_part", "part \(n)")
        }
        #expect(try await UploadFlow.receivedParts(alex, id) == [])
    }

    @Test(
        "Content-Digest must be present and a well-formed sha-256 byte sequence (RFC 9530)",
        arguments: ServerEngine.allCases)
    func digestHeader(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(1024, seed: 9)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        let path = "/api/v1/uploads/\(id)/parts/1"
        let base64 = try UploadFlow.sha256Base64(data)
        let missing = try await alex.send("PUT", path, body: data)
        #expect(missing.status == 400)
        #expect(missing.code == "invalid_digest")
        for bad in ["sha-256=\(base64)", "sha-256=:not base64!:", "sha-256=:AAAA:", "sha-512=:\(base64):", "md5"] {
            let response = try await alex.send("PUT", path, body: data, headers: ["Content-Digest": bad])
            #expect(response.status == 400, "\(bad)")
            #expect(response.code == "invalid_digest", "\(bad)")
        }
        let several = try await alex.send(
            "PUT", path, body: data, headers: ["Content-Digest": "sha-512=:AAAA:, sha-256=:\(base64):"])
        #expect(several.status == 200)
    }

    @Test(
        "completing with a part missing is 409 incomplete naming the part; a whole-file mismatch is 422",
        arguments: ServerEngine.allCases)
    func completionChecks(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(3000, seed: 10)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        for n in [1, 3] {
            #expect(
                try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize)).status == 200)
        }
        let early = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(early.status == 409)
        #expect(early.code == "incomplete")
        #expect((early.object["detail"] as? String)?.contains("2") == true)

        // Announce one file, send another: every part matches its own digest, the whole does not.
        let announced = UploadFlow.bytes(2048, seed: 11)
        let sent = UploadFlow.bytes(2048, seed: 12)
        let other = try #require(
            try await UploadFlow.create(alex, sent, sha256: UploadFlow.sha256Hex(announced)).object["upload_id"]
                as? String)
        for n in 1...2 {
            #expect(
                try await UploadFlow.put(alex, other, n, UploadFlow.part(sent, n, partSize: Self.partSize)).status
                    == 200)
        }
        let mismatch = try await alex.send("POST", "/api/v1/uploads/\(other)/complete")
        #expect(mismatch.status == 422)
        #expect(mismatch.code == "digest_mismatch")
        #expect(try await alex.send("GET", "/api/v1/uploads/\(other)").object["upload_state"] as? String == "pending")
    }

    @Test(
        "a stored part damaged or lost on disk is found at completion: 409 naming it, dropped, and sent again",
        arguments: ServerEngine.allCases)
    func damagedStoredPart(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(3000, seed: 13)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        for n in 1...3 {
            #expect(
                try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize)).status == 200)
        }
        let directory = UploadFlow.directory(server, id)
        // Part 2 flipped in place (same size), part 3 gone.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: directory + "/part-2"))
        damaged[damaged.startIndex + 7] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: directory + "/part-2"))
        try FileManager.default.removeItem(atPath: directory + "/part-3")

        let found = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(found.status == 409, "\(found.text)")
        #expect(found.code == "incomplete")
        #expect(try await UploadFlow.receivedParts(alex, id) == [1])
        #expect(UploadFlow.files(server, id) == ["part-1"])

        for n in 2...3 {
            #expect(
                try await UploadFlow.put(alex, id, n, UploadFlow.part(data, n, partSize: Self.partSize)).status == 200)
        }
        let done = try await alex.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(done.status == 200, "\(done.text)")
        #expect(done.object["sha256"] as? String == (try UploadFlow.sha256Hex(data)))
    }

    @Test("a zero-byte file is one empty part", arguments: ServerEngine.allCases)
    func emptyFile(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let id = try await UploadFlow.uploadWhole(alex, Data())
        let state = try await alex.send("GET", "/api/v1/uploads/\(id)")
        #expect(state.object["upload_state"] as? String == "complete")
        #expect(state.object["received_parts"] as? [Int] == [1])
    }

    @Test(
        "abort: 204, the upload is aborted, its files are deleted, parts and completion are refused",
        arguments: ServerEngine.allCases)
    func abort(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2048, seed: 13)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        #expect(try await UploadFlow.put(alex, id, 1, UploadFlow.part(data, 1, partSize: Self.partSize)).status == 200)
        #expect(!UploadFlow.files(server, id).isEmpty)
        let aborted = try await alex.send("DELETE", "/api/v1/uploads/\(id)")
        #expect(aborted.status == 204)
        #expect(UploadFlow.files(server, id).isEmpty)
        let state = try await alex.send("GET", "/api/v1/uploads/\(id)")
        #expect(state.object["upload_state"] as? String == "aborted")
        #expect(state.object["received_parts"] as? [Int] == [])
        let part = try await UploadFlow.put(alex, id, 2, UploadFlow.part(data, 2, partSize: Self.partSize))
        #expect(part.status == 409)
        #expect(part.code == "upload_not_pending")
        #expect(try await alex.send("POST", "/api/v1/uploads/\(id)/complete").code == "upload_not_pending")
        #expect(try await alex.send("DELETE", "/api/v1/uploads/\(id)").status == 204)
    }

    @Test(
        "createUpload: 413 too_large over file_max_upload_bytes, 415 unsupported_type, 400 for bad members",
        arguments: ServerEngine.allCases)
    func createLimits(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed(maxBytes: 10_000))
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let post = { (body: [String: Any]) in try await alex.send("POST", "/api/v1/uploads", json: body) }
        let sha = try UploadFlow.sha256Hex(Data())
        let valid: [String: Any] = ["file_name": "a.txt", "content_type": "text/plain", "size": 10_000, "sha256": sha]
        #expect(try await post(valid).status == 201)

        var large = valid
        large["size"] = 10_001
        let tooLarge = try await post(large)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.code == "too_large")
        let detail = tooLarge.object["detail"] as? String ?? ""
        #expect(detail.contains("file_max_upload_bytes") && detail.contains("10000"))

        var executable = valid
        executable["content_type"] = "application/x-msdownload"
        let unsupported = try await post(executable)
        #expect(unsupported.status == 415)
        #expect(unsupported.code == "unsupported_type")
        var parameters = valid
        parameters["content_type"] = "TEXT/Plain; charset=utf-8"
        #expect(try await post(parameters).status == 201)
        // Parameters that begin with an emoji modifier or a combining mark:
        // the ";" and what follows are one Character, still a parameter.
        for joined in ["\u{2003}\u{202F}tEXt/pLaIn\u{2003};\u{1F3FB}Z", "text/plain;\u{301}x"] {
            parameters["content_type"] = joined
            let answer = try await post(parameters)
            let scalars = joined.unicodeScalars.map { String($0.value, radix: 16) }
            #expect(answer.status == 201, "\(scalars): \(answer.text)")
        }

        let badMembers: [(String, Any)] = [
            ("file_name", ""), ("file_name", "a/b.txt"), ("file_name", "a\u{0}b"),
            ("file_name", String(repeating: "é", count: 128)), ("size", -1), ("size", 1.5), ("size", "12"),
            ("sha256", "xyz"), ("sha256", String(repeating: "g", count: 64)),
        ]
        for (member, value) in badMembers {
            var body = valid
            body[member] = value
            let response = try await post(body)
            #expect(response.status == 400, "\(member) = \(value)")
            #expect(response.headers["content-type"] == "application/problem+json")
        }
        let malformed = try await alex.send("POST", "/api/v1/uploads", body: Data("{\"file_name\":".utf8))
        #expect(malformed.status == 400)
        #expect(try await alex.send("POST", "/api/v1/uploads", json: valid, token: .some(nil)).status == 401)
    }

    @Test(
        "only the creator sees an upload (404 for others); any of the creator's sessions can resume and complete",
        arguments: ServerEngine.allCases)
    func ownership(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let sam = try await UploadFlow.client(server, "sam")
        let data = UploadFlow.bytes(2048, seed: 14)
        let id = try #require(try await UploadFlow.create(alex, data).object["upload_id"] as? String)
        #expect(try await UploadFlow.put(alex, id, 1, UploadFlow.part(data, 1, partSize: Self.partSize)).status == 200)

        #expect(try await sam.send("GET", "/api/v1/uploads/\(id)").status == 404)
        #expect(try await UploadFlow.put(sam, id, 2, UploadFlow.part(data, 2, partSize: Self.partSize)).status == 404)
        #expect(try await sam.send("POST", "/api/v1/uploads/\(id)/complete").status == 404)
        #expect(try await sam.send("DELETE", "/api/v1/uploads/\(id)").status == 404)
        #expect(try await sam.send("GET", "/api/v1/uploads/up_nothing").status == 404)

        // The daemon (another session of alex) resumes what the CLI started.
        let daemon = try await UploadFlow.client(server, "alex")
        #expect(try await UploadFlow.receivedParts(daemon, id) == [1])
        #expect(
            try await UploadFlow.put(daemon, id, 2, UploadFlow.part(data, 2, partSize: Self.partSize)).status == 200)
        #expect(try await daemon.send("POST", "/api/v1/uploads/\(id)/complete").status == 200)
        #expect(try await alex.send("GET", "/api/v1/uploads/\(id)").object["upload_state"] as? String == "complete")
    }

    @Test(
        "an unfinished upload past expires_at is 404 upload_expired and its files are deleted",
        arguments: ServerEngine.allCases)
    func expiry(engine: ServerEngine) async throws {
        // The setup (one complete upload, two with a part each) must finish
        // within the TTL, or there is nothing to judge: on a machine too
        // loaded to do that in 10 s (it has happened) the test starts over
        // with a longer TTL instead of failing on the machine's load.
        for ttl in [10, 40, 120] where try await expiry(engine: engine, ttl: ttl) { return }
        Issue.record("the setup did not finish within a TTL of 120 s")
    }

    /// One run of ``expiry(engine:)``: false when the setup met the expiry it
    /// was to wait for (nothing checked), true when the checks ran.
    private func expiry(engine: ServerEngine, ttl: Int) async throws -> Bool {
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed(extra: ["upload_ttl_seconds": ttl]))
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        let data = UploadFlow.bytes(2048, seed: 15)
        let began = Date()
        // The complete one first: its create, parts and completion then have
        // the whole time to live, not what the others' requests left of it.
        let finished: String
        do {
            finished = try await UploadFlow.uploadWhole(alex, data)
        } catch  where Date().timeIntervalSince(began) >= Double(ttl) {
            return false
        }
        var unfinished: [String] = []
        var latestExpiry = Date.distantPast
        for _ in 0..<2 {
            let created = try await UploadFlow.create(alex, data).object
            let id = try #require(created["upload_id"] as? String)
            let expiresAt = try #require(
                (created["expires_at"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            latestExpiry = max(latestExpiry, expiresAt)
            let sent = try await UploadFlow.put(alex, id, 1, UploadFlow.part(data, 1, partSize: Self.partSize))
            if sent.status != 200, sent.code == "upload_expired", Date().timeIntervalSince(began) >= Double(ttl) {
                return false
            }
            #expect(sent.status == 200)
            #expect(!UploadFlow.files(server, id).isEmpty)
            unfinished.append(id)
        }
        let (touched, swept) = (unfinished[0], unfinished[1])
        // Not synchronisation with the server but the passage of the time it
        // announced: expiry is compared in whole seconds, so one more second.
        try await Task.sleep(until: .now + .seconds(max(0, latestExpiry.timeIntervalSinceNow) + 1.1))

        let state = try await alex.send("GET", "/api/v1/uploads/\(touched)")
        #expect(state.status == 404)
        #expect(state.code == "upload_expired")
        #expect(UploadFlow.files(server, touched).isEmpty)
        #expect(
            try await UploadFlow.put(alex, touched, 2, UploadFlow.part(data, 2, partSize: Self.partSize)).code
                == "upload_expired")
        #expect(try await alex.send("POST", "/api/v1/uploads/\(touched)/complete").code == "upload_expired")

        // Creating another upload collects expired ones nobody touched.
        #expect(!UploadFlow.files(server, swept).isEmpty)
        #expect(try await UploadFlow.create(alex, data).status == 201)
        #expect(UploadFlow.files(server, swept).isEmpty)
        // A complete upload does not expire.
        #expect(
            try await alex.send("GET", "/api/v1/uploads/\(finished)").object["upload_state"] as? String == "complete")
        return true
    }

    @Test(
        "property: any interleaving of parts, repeats, damaged parts and resumptions ends complete with the file's SHA-256",
        arguments: [UInt64(1), 2, 3, 4], ServerEngine.allCases)
    func interleavings(seed: UInt64, engine: ServerEngine) async throws {
        let partSize = 16 * 1024
        let server = try await ServerProcess.start(engine, seed: UploadFlow.seed(partSize: partSize))
        defer { server.stop() }
        var random = SeededRandom(seed: seed)
        let size = (3 << 20) + Int(random.next() % UInt64(partSize))
        let data = UploadFlow.bytes(size, seed: seed &* 7919)
        var client = try await UploadFlow.client(server, "alex")
        let created = try await UploadFlow.create(client, data, fileName: "big.pdf", contentType: "application/pdf")
        let id = try #require(created.object["upload_id"] as? String)
        let count = try #require(created.object["parts_count"] as? Int)
        #expect(count == (size + partSize - 1) / partSize)

        var stored = Set<Int>()  // what the server must hold
        var believed = Set<Int>()  // what this client thinks it sent (it may have missed an answer)
        var steps = 0
        var done: [String: Int] = [:]  // how often each kind of step ran
        while believed.count < count {
            steps += 1
            try #require(steps < 5_000, "seed \(seed): no progress")
            let roll = random.next() % 100
            switch roll {
            case 0..<8:
                done["resume", default: 0] += 1
                // The client restarts (sometimes as another session) and resumes from getUpload.
                if roll < 3 { client = try await UploadFlow.client(server, "alex") }
                let received = try await UploadFlow.receivedParts(client, id)
                #expect(received == received.sorted(), "seed \(seed)")
                #expect(Set(received) == stored, "seed \(seed)")
                believed = Set(received)
            case 8..<14:
                done["damaged", default: 0] += 1
                // A part damaged in transit is refused and changes nothing.
                let n = Int(random.next() % UInt64(count)) + 1
                let good = UploadFlow.part(data, n, partSize: partSize)
                var damaged = good
                damaged[damaged.startIndex + Int(random.next() % UInt64(good.count))] ^= 0x5A
                #expect(try await UploadFlow.put(client, id, n, damaged, digestOf: good).code == "digest_mismatch")
            case 14..<18:
                done["early completion", default: 0] += 1
                let early = try await client.send("POST", "/api/v1/uploads/\(id)/complete")
                #expect(early.status == 409 && early.code == "incomplete", "seed \(seed)")
            case 18..<30:
                // A part sent again (a retry after a lost answer) is accepted again.
                guard let n = stored.randomElement(using: &random) else { continue }
                done["repeat", default: 0] += 1
                #expect(
                    try await UploadFlow.put(client, id, n, UploadFlow.part(data, n, partSize: partSize)).status == 200)
            default:
                // A few missing parts at once, concurrently, in random order.
                let missing = (1...count).filter { !believed.contains($0) }.shuffled(using: &random)
                let batch = Array(missing.prefix(Int(random.next() % 4) + 1))
                let answerLost = roll >= 95
                done[answerLost ? "lost answers" : "batch", default: 0] += 1
                let sender = client
                let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                    for n in batch {
                        group.addTask {
                            (
                                n,
                                try await UploadFlow.put(sender, id, n, UploadFlow.part(data, n, partSize: partSize))
                                    .status
                            )
                        }
                    }
                    return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
                }
                for (n, status) in statuses {
                    #expect(status == 200, "seed \(seed) part \(n)")
                    stored.insert(n)
                    if !answerLost { believed.insert(n) }
                }
            }
        }
        // The run is deterministic for its seed; make sure it exercised every kind of step.
        #expect(done.keys.count == 6, "seed \(seed) ran only \(done)")
        #expect(Set(try await UploadFlow.receivedParts(client, id)) == Set(1...count))
        let completed = try await client.send("POST", "/api/v1/uploads/\(id)/complete")
        #expect(completed.status == 200, "seed \(seed): \(completed.text)")
        #expect(completed.object["sha256"] as? String == (try UploadFlow.sha256Hex(data)), "seed \(seed)")

        // What the server kept is the file, part by part, and no temporary file is left.
        let files = UploadFlow.files(server, id)
        #expect(files.count == count && !files.contains { $0.hasSuffix(".tmp") }, "seed \(seed)")
        var kept = Data()
        for n in 1...count {
            kept.append(try Data(contentsOf: URL(fileURLWithPath: UploadFlow.directory(server, id) + "/part-\(n)")))
        }
        #expect(kept == data, "seed \(seed)")
    }
}
