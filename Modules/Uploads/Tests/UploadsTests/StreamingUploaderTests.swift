import Foundation
import ShareKitCryptoInterface
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import ShareKitServerAPIInterface
import ShareKitServerAPIInterfaceTesting
import ShareKitSystemTesting
import ShareKitUploads
import ShareKitUploadsInterface
import Testing

/// What a sender sees of ``StreamingUploader``: a file goes up in parts,
/// each the right bytes of the file with its digest, and files that cannot
/// be sent are refused before anything is asked of the server.
@Suite("StreamingUploader: parts, digests and refusals")
struct StreamingUploaderTests {
    static let created = #"{"upload_id":"u-1","part_size":1024,"parts_count":3,"upload_state":"open"}"#

    func file(_ temporary: TemporaryDirectory, size: Int) throws -> String {
        let path = temporary.file("report.bin")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func uploader(_ api: ScriptedAPIClient) -> StreamingUploader {
        StreamingUploader(
            api: api, crypto: SoftwareSHA256(), records: nil, retry: .init(delays: [.zero]), partsInFlight: 1)
    }

    @Test("the tests' SHA-256 is the real one (sha256sum agrees)")
    func hashIsReal() throws {
        let temporary = try TemporaryDirectory(prefix: "sharekit-uploads-module")
        defer { temporary.remove() }
        let path = try file(temporary, size: 200_001)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let ours = try data.withUnsafeBytes { try SoftwareSHA256().sha256($0) }
        let theirs = try runProcess("/usr/bin/env", ["sha256sum", path])
        try #require(theirs.status == 0, "\(theirs.stderr)")
        #expect(ours.map { String(format: "%02x", $0) }.joined() == String(theirs.stdout.prefix(64)))
    }

    @Test("a 2500-byte file: createUpload with its size and SHA-256, three parts of the file, then complete")
    func parts() async throws {
        let temporary = try TemporaryDirectory(prefix: "sharekit-uploads-module")
        defer { temporary.remove() }
        let path = try file(temporary, size: 2500)
        let sha = try runProcess("/usr/bin/env", ["sha256sum", path]).stdout.prefix(64)
        let api = ScriptedAPIClient([
            .json(201, Self.created), .json(200, "{}"), .json(200, "{}"), .json(200, "{}"),
            .json(200, #"{"upload_id":"u-1","upload_state":"completed","sha256":"\#(sha)"}"#),
        ])
        let source = try UploadFile.source(path: path, fileName: "report.bin", contentType: "application/octet-stream")
        let done = try await uploader(api).upload(
            source, limits: UploadLimits(fileMaxUploadBytes: 10_000), budget: .seconds(30), progress: nil,
            cancellation: nil)
        #expect(done.uploadID == "u-1" && done.sha256 == String(sha))
        #expect(api.operations == ["createUpload", "uploadPart 1", "uploadPart 2", "uploadPart 3", "completeUpload"])
        guard case .bytes(let createBody) = api.requests[0].body else {
            Issue.record("createUpload without a body")
            return
        }
        let create = try #require(try JSONSerialization.jsonObject(with: Data(createBody)) as? [String: Any])
        #expect(create["size"] as? Int == 2500 && create["sha256"] as? String == String(sha))
        #expect(create["file_name"] as? String == "report.bin")
        var regions: [(UInt64, UInt64)] = []
        for request in api.requests[1...3] {
            guard case .file(let region) = request.body else {
                Issue.record("a part without the file's bytes")
                return
            }
            #expect(region.path == path)
            #expect(request.headers["Content-Digest"]?.hasPrefix("sha-256=:") == true)
            regions.append((region.offset, region.length))
        }
        #expect(regions.map(\.0) == [0, 1024, 2048] && regions.map(\.1) == [1024, 1024, 452])
        #expect(api.requests[1].path.hasSuffix("/uploads/u-1/parts/1"))
    }

    @Test(
        "a server that took the composite digest for the plain form (422 digest_mismatch at completion) gets the upload again with the file's SHA-256"
    )
    func compositeRefusedAtCompletion() async throws {
        let temporary = try TemporaryDirectory(prefix: "sharekit-uploads-module")
        defer { temporary.remove() }
        let path = try file(temporary, size: 2500)
        let sha = try runProcess("/usr/bin/env", ["sha256sum", path]).stdout.prefix(64)
        let mismatch = APIError.refused(
            APIRefusal(operation: "completeUpload", status: 422, code: "digest_mismatch", message: "no match"))
        let api = ScriptedAPIClient([
            .json(201, Self.created), .json(200, "{}"), .json(200, "{}"), .json(200, "{}"), .failure(mismatch),
            .json(201, Self.created), .json(200, "{}"), .json(200, "{}"), .json(200, "{}"),
            .json(200, #"{"upload_id":"u-1","upload_state":"complete","sha256":"\#(sha)"}"#),
        ])
        let source = try UploadFile.source(path: path, fileName: "report.bin", contentType: "application/octet-stream")
        let limits = UploadLimits(fileMaxUploadBytes: 10_000, partSize: 1024, digestAlgorithms: ["sha256-composite"])
        let done = try await uploader(api).upload(
            source, limits: limits, budget: .seconds(30), progress: nil, cancellation: nil)
        #expect(done.sha256 == String(sha))
        let parts = ["uploadPart 1", "uploadPart 2", "uploadPart 3"]
        #expect(
            api.operations == ["createUpload"] + parts + ["completeUpload", "createUpload"] + parts + ["completeUpload"]
        )
        var bodies: [[String: Any]] = []
        for request in api.requests where request.operation == "createUpload" {
            guard case .bytes(let body) = request.body else { continue }
            bodies.append(try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]))
        }
        #expect(bodies.first?["digest_algorithm"] as? String == "sha256-composite")
        #expect(bodies.first?["part_size"] as? Int == 1024)
        #expect(bodies.last?["digest_algorithm"] == nil)
        #expect(bodies.last?["sha256"] as? String == String(sha))
    }

    @Test("a file over the server's limit or changed since it was chosen is refused without a request")
    func refusedBeforeSending() async throws {
        let temporary = try TemporaryDirectory(prefix: "sharekit-uploads-module")
        defer { temporary.remove() }
        let path = try file(temporary, size: 2500)
        let source = try UploadFile.source(path: path, contentType: "application/octet-stream")
        let api = ScriptedAPIClient()
        await #expect {
            _ = try await uploader(api).upload(
                source, limits: UploadLimits(fileMaxUploadBytes: 2499), budget: nil, progress: nil, cancellation: nil)
        } throws: { error in
            (error as? APIError)?.refusedStatus == 413 && "\(error)".contains("too_large")
        }
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: path))
        await #expect {
            _ = try await uploader(api).upload(
                source, limits: UploadLimits(fileMaxUploadBytes: 10_000), budget: nil, progress: nil, cancellation: nil)
        } throws: { error in
            guard case .failed(.fileChanged) = error as? APIError else { return false }
            return true
        }
        #expect(api.calls.isEmpty)
    }

    @Test("createUpload numbers that do not describe the file are retried once, then a retryable failure")
    func hostileCreateAnswer() async throws {
        let temporary = try TemporaryDirectory(prefix: "sharekit-uploads-module")
        defer { temporary.remove() }
        let source = try UploadFile.source(path: try file(temporary, size: 2500), contentType: "text/plain")
        let wrong = #"{"upload_id":"u-1","part_size":1024,"parts_count":9223372036854775807}"#
        let api = ScriptedAPIClient([.json(201, wrong), .json(201, wrong)])
        await #expect {
            _ = try await uploader(api).upload(
                source, limits: UploadLimits(fileMaxUploadBytes: 10_000), budget: nil, progress: nil, cancellation: nil)
        } throws: { error in
            (error as? APIError)?.isRetryable == true && "\(error)".contains("do not fit")
        }
        #expect(api.operations == ["createUpload", "createUpload"])
    }
}
