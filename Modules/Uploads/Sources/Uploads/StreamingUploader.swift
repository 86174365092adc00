public import CryptoInterface
public import HTTPInterface
import HTTPTypes
public import SessionsInterface
import ShareCore
import Synchronization
public import UploadsInterface

/// Uploads files with the upload protocol over a DPoP-signing client.
///
/// One call: refuse a file over `file_max_upload_bytes` before any request;
/// resume the upload recorded for the same file version when the record
/// store has one (getUpload says which parts are missing); otherwise hash
/// the file in one streaming pass (whole file and, when the part size is
/// known from an earlier upload, every part in the same pass), createUpload,
/// persist the record, and send the parts in order as file regions straight
/// from disk, each with its `Content-Digest`. A passing failure (no network,
/// cut connection, `5xx`, `429`, an incomplete completion) is followed by a
/// pause and getUpload, and only the missing parts are sent again, a bounded
/// number of times. Cancelling aborts the upload on the server; the budget
/// running out stops it and keeps the record for the daemon.
///
/// Peak memory: one 256 KiB read buffer and 32 bytes per part, whatever the
/// file's size (the client streams each part from disk).
public final class StreamingUploader: FileUploading {
    /// How often and how patiently passing failures are retried.
    public struct RetryPolicy: Sendable {
        /// The pauses before each retry; their count is the number of retries.
        public var delays: [Duration]

        /// Makes a policy.
        /// - Parameter delays: the pauses before each retry (four, from 0.2 s to 2 s, unless given).
        public init(delays: [Duration] = [.milliseconds(200), .milliseconds(500), .seconds(1), .seconds(2)]) {
            self.delays = delays
        }
    }

    /// What happened during an upload, for logs and tests (never a token).
    public enum Event: Sendable, Equatable {
        /// A pass over the file for its SHA-256 began (with per-part digests
        /// when `partSize` is given): one per upload when the part size is
        /// known in advance, two otherwise.
        case hashingPass(partSize: Int64?)
        /// createUpload answered.
        case created(uploadID: String, partsCount: Int)
        /// An upload was resumed (from a record or after a failure) and these parts were missing.
        case resumed(uploadID: String, missingParts: [Int])
        /// The server acknowledged a part.
        case partAcknowledged(uploadID: String, part: Int)
        /// A passing failure; a retry follows.
        case retrying(String)
        /// The upload was completed.
        case completed(uploadID: String)
        /// The upload was aborted after a cancellation.
        case aborted(uploadID: String)
    }

    private let serverOrigin: String
    private let client: any DPoPSigningHTTPClient
    private let tokens: any AccessTokenProvider
    private let crypto: any CryptoProvider
    private let records: (any UploadRecordStore)?
    private let retry: RetryPolicy
    private let timeouts: HTTPTimeouts
    private let observer: (@Sendable (Event) -> Void)?
    private let partSizeHint: Mutex<Int64?>

    /// Makes an uploader for one server.
    /// - Parameters:
    ///   - serverOrigin: `http(s)://host:port` of the server.
    ///   - client: the DPoP-signing client.
    ///   - tokens: the session's access tokens.
    ///   - crypto: SHA-256.
    ///   - records: where upload records are kept for resumption; nil keeps none.
    ///   - partSizeHint: the server's `upload_part_size` if known, so per-part
    ///     digests come from the same pass as the whole-file digest; otherwise
    ///     the record store's ``UploadRecordStore/lastPartSize(serverOrigin:)``,
    ///     and learned from each createUpload.
    ///   - retry: the retry policy.
    ///   - timeouts: the time limits of each request.
    ///   - observer: called with each ``Event``.
    public init(
        serverOrigin: String, client: any DPoPSigningHTTPClient, tokens: any AccessTokenProvider,
        crypto: any CryptoProvider, records: (any UploadRecordStore)?, partSizeHint: Int64? = nil,
        retry: RetryPolicy = RetryPolicy(), timeouts: HTTPTimeouts = HTTPTimeouts(),
        observer: (@Sendable (Event) -> Void)? = nil
    ) {
        self.serverOrigin = serverOrigin
        self.client = client
        self.tokens = tokens
        self.crypto = crypto
        self.records = records
        self.retry = retry
        self.timeouts = timeouts
        self.observer = observer
        self.partSizeHint = Mutex(partSizeHint)
    }

    /// Why a step did not succeed, inside one upload.
    enum Failure: Error {
        /// The run stopped (cancelled or out of budget).
        case stopped
        /// A passing failure: retry after a pause.
        case transient(String)
        /// The upload is no longer pending on the server (`404`, expired, aborted).
        case gone(String)
        /// The final outcome.
        case final(UploadError)
    }

    public func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(UploadError) -> CompletedUpload {
        guard source.size <= limits.fileMaxUploadBytes else {
            throw .rejected(
                code: "too_large",
                message:
                    "\(source.fileName) is \(source.size) bytes; file_max_upload_bytes is \(limits.fileMaxUploadBytes)"
            )
        }
        guard try UploadFile.identity(ofPath: source.path) == source.identity else {
            throw .fileChanged("\(source.path) is no longer the version to upload (size or modification time differ)")
        }
        let run = UploadRun(total: source.size, progress: progress)
        let handlerID = cancellation?.addHandler { run.stop(.cancelled) }
        let limit = budget ?? UploadBudget.defaultBudget(forSize: source.size)
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { run.stop(.budget) }
        }
        defer {
            timer.cancel()
            if let handlerID { cancellation?.removeHandler(handlerID) }
        }
        let state = UploadState()
        let outcome: Result<CompletedUpload, Failure> = await withTaskCancellationHandler {
            do throws(Failure) {
                return .success(try await perform(source, run: run, state: state))
            } catch {
                return .failure(error)
            }
        } onCancel: {
            run.stop(.cancelled)
        }
        switch outcome {
        case .success(let done):
            return done
        case .failure(.final(let error)):
            throw error
        case .failure(.transient(let why)), .failure(.gone(let why)):
            throw .retryable(why)
        case .failure(.stopped):
            switch run.stopReason {
            case .budget:
                throw .handedOff(uploadID: state.record?.uploadID)
            case .cancelled, nil:
                if let record = state.record {
                    // A task of its own: the caller's task may be the one cancelled,
                    // and a cancelled task's requests fail before they are sent.
                    await Task { await self.abort(record) }.value
                }
                throw .cancelled
            }
        }
    }

    /// What one upload has got so far, for the outcome.
    final class UploadState: @unchecked Sendable {
        var record: UploadRecord?
    }

    // MARK: The steps

    private func perform(_ source: UploadSource, run: UploadRun, state: UploadState) async throws(Failure)
        -> CompletedUpload
    {
        var attempt = 0
        var missing: [Int]? = nil
        if let stored = try storedRecord(source) {
            state.record = stored
        }
        while true {
            do throws(Failure) {
                try checkStopped(run)
                if state.record == nil {
                    state.record = try await create(source, run: run)
                    missing = Array(1...state.record!.partsCount)
                }
                let record = state.record!
                if missing == nil {
                    guard let parts = try await missingParts(record, run: run) else {
                        // The recorded upload is gone (expired, aborted): start over.
                        removeRecord(record)
                        state.record = nil
                        continue
                    }
                    missing = parts
                    observer?(.resumed(uploadID: record.uploadID, missingParts: parts))
                }
                for part in missing! {
                    try await sendPart(part, of: record, run: run)
                }
                missing = []
                if let done = try await complete(record, run: run) {
                    removeRecord(record)
                    observer?(.completed(uploadID: record.uploadID))
                    return done
                }
                throw Failure.transient("the server is missing parts of upload \(record.uploadID)")
            } catch .transient(let why) {
                guard attempt < retry.delays.count else { throw .transient(why) }
                observer?(.retrying(why))
                try await pause(retry.delays[attempt], run: run)
                attempt += 1
                missing = nil
            } catch .gone(let why) {
                // The upload expired or was aborted on the server: start over, once per retry.
                if let record = state.record { removeRecord(record) }
                state.record = nil
                guard attempt < retry.delays.count else { throw .transient(why) }
                observer?(.retrying(why))
                attempt += 1
                missing = nil
            } catch .final(let error) {
                if let record = state.record {
                    switch error {
                    case .rejected, .fileChanged: removeRecord(record)
                    default: break
                    }
                }
                throw .final(error)
            }
        }
    }

    private func storedRecord(_ source: UploadSource) throws(Failure) -> UploadRecord? {
        guard let records else { return nil }
        do {
            return try records.record(for: source.identity, serverOrigin: serverOrigin)
        } catch {
            // An unreadable record only costs a fresh upload.
            return nil
        }
    }

    private func removeRecord(_ record: UploadRecord) {
        try? records?.removeRecord(path: record.identity.path, serverOrigin: serverOrigin)
    }

    private func create(_ source: UploadSource, run: UploadRun) async throws(Failure) -> UploadRecord {
        let hint = partSizeHint.withLock { $0 } ?? records?.lastPartSize(serverOrigin: serverOrigin)
        let digests: UploadFile.Digests?
        observer?(.hashingPass(partSize: hint))
        do {
            digests = try UploadFile.hash(
                source.identity, partSize: hint, crypto: crypto, shouldStop: { run.stopReason != nil })
        } catch {
            throw .final(error)
        }
        guard var digests else { throw .stopped }
        let sha256 = Hex.encode(digests.whole)
        var request = HTTPClientRequest(
            method: .post, url: serverOrigin + "/api/v1/uploads",
            body: .bytes(UploadJSON.createBody(source, sha256: sha256)))
        request.headers.set("Content-Type", "application/json")
        let response = try await send(request, run: run)
        guard response.status == 201 else { throw classify(response, "createUpload") }
        guard let created = UploadJSON.created(response) else {
            throw .transient("createUpload answered 201 with a body that is not an upload")
        }
        partSizeHint.withLock { $0 = created.partSize }
        records?.rememberPartSize(created.partSize, serverOrigin: serverOrigin)
        if hint != created.partSize || digests.parts.count != created.partsCount {
            // The part size was not known in advance: a second pass for the part digests.
            observer?(.hashingPass(partSize: created.partSize))
            do {
                guard
                    let again = try UploadFile.hash(
                        source.identity, partSize: created.partSize, crypto: crypto,
                        shouldStop: { run.stopReason != nil })
                else { throw Failure.stopped }
                guard again.whole == digests.whole else {
                    throw Failure.final(.fileChanged("\(source.path) changed while it was being uploaded"))
                }
                digests = again
            } catch let error as Failure {
                throw error
            } catch {
                throw .final(error as? UploadError ?? .fileChanged("\(error)"))
            }
        }
        let record = UploadRecord(
            serverOrigin: serverOrigin, uploadID: created.uploadID, identity: source.identity,
            partSize: created.partSize, partsCount: created.partsCount, sha256: sha256,
            partDigests: digests.parts.map { ContentDigest(sha256: $0).base64 })
        // Without a persisted record only this process can resume; the upload still proceeds.
        try? records?.save(record)
        observer?(.created(uploadID: created.uploadID, partsCount: created.partsCount))
        return record
    }

    /// The parts the server lacks, or nil when the upload no longer exists
    /// as a pending upload (a complete one reports nothing missing).
    private func missingParts(_ record: UploadRecord, run: UploadRun) async throws(Failure) -> [Int]? {
        let request = HTTPClientRequest(method: .get, url: serverOrigin + "/api/v1/uploads/" + record.uploadID)
        let response = try await send(request, run: run)
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw classify(response, "getUpload") }
        guard let status = UploadJSON.status(response) else {
            throw .transient("getUpload answered with a body that is not an upload")
        }
        switch status.state {
        case "pending":
            let acknowledged = status.receivedParts.reduce(Int64(0)) { $0 + length(of: $1, in: record) }
            run.acknowledge(acknowledged)
            return (1...record.partsCount).filter { !status.receivedParts.contains($0) }
        case "complete":
            return []
        default:
            return nil
        }
    }

    private func length(of part: Int, in record: UploadRecord) -> Int64 {
        let offset = Int64(part - 1) * record.partSize
        return max(0, min(record.partSize, record.identity.size - offset))
    }

    private func sendPart(_ part: Int, of record: UploadRecord, run: UploadRun) async throws(Failure) {
        let offset = Int64(part - 1) * record.partSize
        let length = length(of: part, in: record)
        var request = HTTPClientRequest(
            method: .put, url: serverOrigin + "/api/v1/uploads/\(record.uploadID)/parts/\(part)",
            body: .file(HTTPFileRegion(path: record.identity.path, offset: UInt64(offset), length: UInt64(length))))
        request.headers.set("Content-Type", "application/octet-stream")
        request.headers.set("Content-Digest", ContentDigest.headerValue(base64: record.partDigests[part - 1]))
        let response = try await send(request, run: run) { sent in run.inFlight(Int64(sent.bytesSent)) }
        guard response.status == 200 else { throw classify(response, "uploadPart \(part)") }
        run.acknowledge(offset + length)
        observer?(.partAcknowledged(uploadID: record.uploadID, part: part))
    }

    /// Completes the upload: the result, or nil when parts are missing.
    private func complete(_ record: UploadRecord, run: UploadRun) async throws(Failure) -> CompletedUpload? {
        let request = HTTPClientRequest(
            method: .post, url: serverOrigin + "/api/v1/uploads/\(record.uploadID)/complete")
        let response = try await send(request, run: run)
        if response.status == 409, HTTPResponseProblem(response).code == "incomplete" { return nil }
        guard response.status == 200 else { throw classify(response, "completeUpload") }
        let sha = UploadJSON.object(response)?["sha256"] as? String ?? record.sha256
        run.acknowledge(record.identity.size)
        return CompletedUpload(uploadID: record.uploadID, sha256: sha)
    }

    /// Aborts an upload after a cancellation, with a handle of its own (the
    /// run's is cancelled); a failure leaves the upload to expire on the server.
    private func abort(_ record: UploadRecord) async {
        removeRecord(record)
        let request = HTTPClientRequest(method: .delete, url: serverOrigin + "/api/v1/uploads/" + record.uploadID)
        let options = HTTPRequestOptions(timeouts: HTTPTimeouts(connect: .seconds(5), total: .seconds(10)))
        guard let token = try? await tokens.currentAccessToken() else { return }
        if (try? await client.send(request, accessToken: token.plainText, options: options)) != nil {
            observer?(.aborted(uploadID: record.uploadID))
        }
    }

    // MARK: Requests

    private func checkStopped(_ run: UploadRun) throws(Failure) {
        if run.stopReason != nil { throw .stopped }
    }

    private func pause(_ delay: Duration, run: UploadRun) async throws(Failure) {
        let end = ContinuousClock.now + delay
        while ContinuousClock.now < end {
            try checkStopped(run)
            try? await Task.sleep(for: min(.milliseconds(50), end - ContinuousClock.now))
        }
        try checkStopped(run)
    }

    /// Sends one request with the session's token, once more with a fresh
    /// token when the server refused the first as expired or unknown.
    private func send(
        _ request: HTTPClientRequest, run: UploadRun, progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil
    ) async throws(Failure) -> HTTPClientResponse {
        let options = HTTPRequestOptions(timeouts: timeouts, progress: progress, cancellation: run.cancellation)
        var refused = false
        while true {
            try checkStopped(run)
            let token = try await accessToken(run)
            let response: HTTPClientResponse
            do {
                response = try await client.send(request, accessToken: token.plainText, options: options)
            } catch {
                if run.stopReason != nil || error == .cancelled { throw .stopped }
                if error.isRetryable { throw .transient("\(error)") }
                if case .fileChanged(_, let why) = error { throw .final(.fileChanged(why)) }
                if case .fileUnreadable(_, let why) = error { throw .final(.fileChanged(why)) }
                throw .transient("\(error)")
            }
            if response.status == 401, !refused {
                refused = true
                await tokens.reportRejected(token: token)
                continue
            }
            return response
        }
    }

    private func accessToken(_ run: UploadRun) async throws(Failure) -> AccessToken {
        do {
            return try await tokens.currentAccessToken()
        } catch {
            switch error {
            case .unavailable: throw .final(.sessionUnavailable(error.description))
            case .cancelled: throw .stopped
            case .retryable, .failed: throw .transient(error.description)
            }
        }
    }

    /// What an unexpected status means.
    private func classify(_ response: HTTPClientResponse, _ operation: String) -> Failure {
        let problem = HTTPResponseProblem(response)
        switch response.status {
        case 401:
            return .final(.sessionUnavailable("\(operation): the server refused the session (\(problem.code))"))
        case 409 where problem.code == "upload_not_pending":
            return .gone("\(operation): \(problem.message)")
        case 404, 410:
            return .gone("\(operation): the upload no longer exists on the server (\(problem.code))")
        case 408, 429, 500...599:
            return .transient("\(operation) answered \(response.status) \(problem.code)")
        default:
            return .final(.rejected(code: problem.code, message: "\(operation): \(problem.message)"))
        }
    }
}
