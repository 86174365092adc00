import Foundation
import ShareKitHTTPInterfaceTesting
import ShareKitHTTPTypes
import ShareKitOpenSSLCrypto
import ShareKitServerAPIInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import ShareKitUploads
import ShareKitUploadsInterface
import Synchronization
import Testing

/// The upload protocol's numbers as a hostile server sends them: each must
/// end the upload with a clear error (or be ignored), never a trap.
@Suite("uploads: hostile answers")
struct HostileAnswerTests {
    /// A server behind the API client seam: answers by path suffix, the
    /// rest `200 {}`. What the uploader decodes is exactly these bytes.
    struct Scripted: AuthorizedAPIClient {
        let origin = "http://127.0.0.1:9"
        let answers: [(suffix: String, status: Int, body: String)]

        func send(_ request: APIRequest, options: APICallOptions) async throws(APIError) -> APIResponse {
            let hit = answers.first { request.path.hasSuffix($0.suffix) } ?? ("", 200, "{}")
            let body = Array(hit.body.utf8)
            if let error = APIClassifier.classify(
                status: hit.status, headers: [:], body: body, operation: request.operation, now: 0)
            {
                throw error
            }
            return APIResponse(status: hit.status, body: body)
        }
    }

    static func upload(_ api: Scripted, size: Int = 3000) async throws -> Result<CompletedUpload, APIError> {
        let directory = try TemporaryDirectory(prefix: "hostile-uploads")
        defer { directory.remove() }
        let path = directory.file("f.bin")
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: size))
        let source = try UploadFile.source(path: path, contentType: "application/octet-stream")
        let uploader = StreamingUploader(
            api: api, crypto: OpenSSLCryptoProvider(), records: nil, retry: .init(delays: [.zero]))
        do throws(APIError) {
            return .success(
                try await uploader.upload(
                    source, limits: UploadLimits(fileMaxUploadBytes: .max), budget: .seconds(30), progress: nil,
                    cancellation: nil))
        } catch {
            return .failure(error)
        }
    }

    @Test(
        "createUpload numbers that do not describe the file are a retryable failure",
        arguments: [
            #"{"upload_id":"u","part_size":1024,"parts_count":0}"#,
            #"{"upload_id":"u","part_size":0,"parts_count":1}"#,
            #"{"upload_id":"u","part_size":-1024,"parts_count":3}"#,
            #"{"upload_id":"u","part_size":1024,"parts_count":9223372036854775807}"#,
            #"{"upload_id":"u","part_size":"1024","parts_count":3}"#,
        ])
    func createNumbers(_ body: String) async throws {
        let result = try await Self.upload(Scripted(answers: [("/api/v1/uploads", 201, body)]))
        guard case .failure(.retryable) = result else {
            Issue.record("expected a retryable failure, got \(result)")
            return
        }
    }

    @Test("a part size beyond the file is one part: the upload completes")
    func hugePartSize() async throws {
        let result = try await Self.upload(
            Scripted(answers: [
                ("/api/v1/uploads", 201, #"{"upload_id":"u","part_size":9223372036854775807,"parts_count":1}"#)
            ]))
        guard case .success = result else {
            Issue.record("expected success, got \(result)")
            return
        }
    }

    @Test("received_parts with huge, negative and foreign part numbers: only this upload's parts count")
    func receivedParts() async throws {
        let script = Scripted(answers: [
            ("/api/v1/uploads", 201, #"{"upload_id":"u","part_size":1024,"parts_count":3}"#),
            ("/parts/2", 503, #"{"code":"busy"}"#),
            (
                "/api/v1/uploads/u", 200,
                #"{"upload_state":"pending","received_parts":[9223372036854775807,-9223372036854775808,0,1,3,4]}"#
            ),
        ])
        let result = try await Self.upload(script)
        guard case .failure(.retryable) = result else {
            Issue.record("part 2 never succeeds: expected retryable, got \(result)")
            return
        }
    }
}
