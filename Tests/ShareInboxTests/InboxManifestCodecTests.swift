import Foundation
import ShareKitCore
import ShareKitCoreTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting
import Testing

@Suite("inbox manifest encoding")
struct InboxManifestCodecTests {
    private let full = InboxManifest(
        clientMsgID: "0193a6b2-7c1d-7e00-8000-000000000001", serverOrigin: "http://127.0.0.1:8080",
        target: ShareTarget(kind: .newPost, id: "c1", displayPath: "server > Gateway"), comment: "have a look",
        title: "resume the gateway", createdAt: "2026-12-01T03:00:00Z",
        attachments: [
            InboxAttachment(
                file: "1-report.pdf", fileName: "report.pdf", contentType: "application/pdf", size: 1234,
                completedUploadID: "upl_1")
        ], attempts: 1, lastError: "the server could not be reached")

    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("a manifest has exactly the documented keys, sorted, and round-trips")
    func documentedKeys() throws {
        let bytes = try InboxManifestCodec.encode(full)
        let json = try object(bytes)
        #expect(
            Set(json.keys) == [
                "format_version", "client_msg_id", "server_origin", "target", "comment", "title", "created_at",
                "attachments", "attempts", "last_error",
            ])
        #expect(Set(try #require(json["target"] as? [String: Any]).keys) == ["kind", "id", "display_path"])
        let attachment = try #require((json["attachments"] as? [[String: Any]])?.first)
        #expect(Set(attachment.keys) == ["file", "file_name", "content_type", "size", "completed_upload_id"])
        #expect(json["format_version"] as? Int == 1)
        #expect((json["target"] as? [String: Any])?["kind"] as? String == "new_post")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\"attachments\":"))
        #expect(text.range(of: "\"attempts\"")!.lowerBound < text.range(of: "\"client_msg_id\"")!.lowerBound)
        #expect(try InboxManifestCodec.decode(bytes) == full)
        #expect(try InboxManifestCodec.decode(try InboxManifestCodec.encode(full, pretty: true)) == full)

        // Optional fields left out are absent, and nothing else appears.
        var minimal = full
        minimal.title = nil
        minimal.lastError = nil
        minimal.attachments[0].completedUploadID = nil
        let keys = Set(try object(try InboxManifestCodec.encode(minimal)).keys)
        #expect(
            keys == [
                "format_version", "client_msg_id", "server_origin", "target", "comment", "created_at", "attachments",
                "attempts",
            ])
    }

    /// The manifest of `full` with `part_digests` of its attachment set to `value` (JSON).
    private func withPartDigests(_ value: String, size: Int64 = 1234) throws -> [UInt8] {
        var manifest = full
        manifest.attachments[0].size = size
        var json = try object(try InboxManifestCodec.encode(manifest))
        var attachment = try #require((json["attachments"] as? [[String: Any]])?.first)
        attachment["part_digests"] = try JSONSerialization.jsonObject(
            with: Data(value.utf8), options: .fragmentsAllowed)
        json["attachments"] = [attachment]
        return Array(try JSONSerialization.data(withJSONObject: json))
    }

    @Test("an attachment's part digests are written as part_size and 64 lowercase hex digits a part, and read back")
    func partDigestsRoundTrip() throws {
        var manifest = full
        manifest.attachments[0].size = 20
        manifest.attachments[0].partDigests = FilePartDigests(
            partSize: 8,
            digests: [
                [UInt8](repeating: 0xAB, count: 32), [UInt8](repeating: 1, count: 32), [UInt8](repeating: 0, count: 32),
            ],
            fileSize: 20)
        let bytes = try InboxManifestCodec.encode(manifest)
        let attachment = try #require((try object(bytes)["attachments"] as? [[String: Any]])?.first)
        let stored = try #require(attachment["part_digests"] as? [String: Any])
        #expect(stored["part_size"] as? Int == 8)
        #expect((stored["sha256"] as? [String])?.first == String(repeating: "ab", count: 32))
        #expect(try InboxManifestCodec.decode(bytes) == manifest)
        #expect(try InboxManifestCodec.decode(bytes).attachments[0].partDigests?.digests.count == 3)
    }

    @Test(
        "hostile part digests read as none (the upload hashes the file); the rest of the entry is kept",
        arguments: [
            // Not 64 lowercase hex digits.
            #"{"part_size": 1024, "sha256": ["\#(String(repeating: "AB", count: 32))", "\#(String(repeating: "0", count: 64))"]}"#,
            #"{"part_size": 1024, "sha256": ["\#(String(repeating: "0", count: 63))", "\#(String(repeating: "0", count: 64))"]}"#,
            #"{"part_size": 1024, "sha256": ["\#(String(repeating: "g", count: 64))", "\#(String(repeating: "0", count: 64))"]}"#,
            // A count that is not the number of parts of 1234 bytes at 1024.
            #"{"part_size": 1024, "sha256": ["\#(String(repeating: "0", count: 64))"]}"#,
            #"{"part_size": 1024, "sha256": []}"#,
            // Part sizes out of range, or so small the count is over the bound.
            #"{"part_size": 0, "sha256": []}"#,
            #"{"part_size": -1024, "sha256": ["\#(String(repeating: "0", count: 64))"]}"#,
            #"{"part_size": 1, "sha256": ["\#(String(repeating: "0", count: 64))"]}"#,
            #"{"part_size": 99999999999999999999, "sha256": ["\#(String(repeating: "0", count: 64))"]}"#,
            // Wrong types.
            #""yes""#, #"[1, 2]"#, #"{"part_size": "1024", "sha256": "x"}"#, #"{"sha256": []}"#, "null",
        ])
    func hostilePartDigests(value: String) throws {
        let manifest = try InboxManifestCodec.decode(try withPartDigests(value))
        #expect(manifest.attachments[0].partDigests == nil)
        #expect(manifest.attachments[0].size == 1234)
        #expect(manifest.attachments[0].fileName == "report.pdf")
        #expect(manifest.clientMsgID == full.clientMsgID)
        // The same shape with digests that fit is read.
        let fitting =
            #"{"part_size": 1024, "sha256": ["\#(String(repeating: "0", count: 64))", "\#(String(repeating: "f", count: 64))"]}"#
        #expect(
            try InboxManifestCodec.decode(try withPartDigests(fitting)).attachments[0].partDigests?.partSize == 1024)
    }

    @Test("decoding errors name the problem and the field")
    func decodingErrors() throws {
        #expect(throws: InboxError.manifestNotJSON) { _ = try InboxManifestCodec.decode(Array("not json".utf8)) }
        #expect(throws: InboxError.manifestNotJSON) { _ = try InboxManifestCodec.decode(Array("[1]".utf8)) }
        #expect(throws: InboxError.manifestMissingField("format_version")) {
            _ = try InboxManifestCodec.decode(Array("{}".utf8))
        }
        #expect(throws: InboxError.manifestNewerFormat(7)) {
            _ = try InboxManifestCodec.decode(Array("{\"format_version\": 7, \"anything\": true}".utf8))
        }
        #expect(throws: InboxError.manifestUnknownFormat(0)) {
            _ = try InboxManifestCodec.decode(Array("{\"format_version\": 0}".utf8))
        }
        var json = try object(try InboxManifestCodec.encode(full))
        json["client_msg_id"] = nil
        #expect(throws: InboxError.manifestMissingField("client_msg_id")) {
            _ = try InboxManifestCodec.decode(Array(try JSONSerialization.data(withJSONObject: json)))
        }
        json = try object(try InboxManifestCodec.encode(full))
        var attachments = try #require(json["attachments"] as? [[String: Any]])
        attachments[0]["size"] = "big"
        json["attachments"] = attachments
        #expect(throws: InboxError.manifestWrongType("attachments.0.size")) {
            _ = try InboxManifestCodec.decode(Array(try JSONSerialization.data(withJSONObject: json)))
        }
        #expect("\(InboxError.manifestNewerFormat(7))" == "it was written by a newer ShareKit (format 7)")
    }

    @Test("every number is range-checked where it is decoded: the error names the field, never a trap")
    func outOfRangeNumbers() throws {
        func decoding(_ change: (inout [String: Any]) -> Void) throws -> InboxError? {
            var json = try object(try InboxManifestCodec.encode(full))
            change(&json)
            do {
                _ = try InboxManifestCodec.decode(Array(try JSONSerialization.data(withJSONObject: json)))
                return nil
            } catch {
                return error as? InboxError
            }
        }
        func attachment(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
            { json in
                var attachments = json["attachments"] as? [[String: Any]] ?? []
                attachments[0][key] = value
                json["attachments"] = attachments
            }
        }
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("'attempts' is 9223372036854775807", { $0["attempts"] = Int64.max }),
            ("'attempts' is -1", { $0["attempts"] = -1 }),
            ("'attempts' is 1000001", { $0["attempts"] = 1_000_001 }),
            ("'attachments.0.size' is -1", attachment("size", -1)),
            ("'attachments.0.size' is 1125899906842625", attachment("size", Int64(1 << 50) + 1)),
            ("'attachments.0.size' is -9223372036854775808", attachment("size", Int64.min)),
            ("'created_at' is outside", { $0["created_at"] = "1969-12-31T23:59:59Z" }),
            ("'created_at' is outside", { $0["created_at"] = "0000-01-01T00:00:00Z" }),
            ("'created_at' is not an RFC 3339 time", { $0["created_at"] = "yesterday" }),
            ("completed_upload_id' is longer", attachment("completed_upload_id", String(repeating: "u", count: 5000))),
            (
                "'attachments' has 1001 files",
                { json in
                    let one = (json["attachments"] as? [[String: Any]] ?? [])[0]
                    json["attachments"] = Array(repeating: one, count: 1001)
                }
            ),
        ]
        for (words, change) in cases {
            let error = try decoding(change)
            guard case .manifestOutOfRange(let problem)? = error else {
                Issue.record("\(words): \(error.map { "\($0)" } ?? "decoded")")
                continue
            }
            #expect(problem.contains(words), "\(problem)")
        }
        // The edges of each range still decode.
        #expect(try decoding { $0["attempts"] = 1_000_000 } == nil)
        #expect(try decoding(attachment("size", Int64(1 << 50))) == nil)
        #expect(try decoding { $0["created_at"] = "9999-12-31T23:59:59.999Z" } == nil)
        // Counting stops at the top of the range instead of overflowing.
        var busy = full
        busy.attempts = InboxManifest.attemptsRange.upperBound
        #expect(busy.countingAttempt().attempts == InboxManifest.attemptsRange.upperBound)
        busy.attempts = Int.max
        #expect(busy.countingAttempt().attempts == InboxManifest.attemptsRange.upperBound)
        #expect(full.countingAttempt().attempts == 2)
    }
}
