public import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitHTTPInterface
import ShareKitHTTPTypes
public import ShareKitServerAPIInterface
public import ShareKitUploadsInterface
import ShareKitWireContract
import Synchronization

/// Uploads files with the upload protocol through the authorized API client.
///
/// One call: refuse a file over `file_max_upload_bytes` before any request;
/// resume the upload recorded for the same file version when the record
/// store has one (getUpload says which parts are missing); otherwise hash
/// the file in one streaming pass and createUpload: against a server that
/// lists `sha256-composite` (``UploadLimits/digestAlgorithms``) with a known
/// part size, the pass hashes only the parts and the whole file's digest is
/// the composite one (the SHA-256 of the part digests, which the server
/// checks without reading the file again); otherwise it hashes the whole
/// file and, when the part size is known, every part (two threads), as
/// servers without the composite form need; then
/// persist the record, and send the parts as file regions straight from
/// disk, each with its `Content-Digest`, up to ``partsInFlight`` at a time
/// in part order (the protocol takes parts in any order; while the server
/// makes one part durable and commits it, the next is already on its way).
/// A passing failure (no network,
/// cut connection, `5xx`, `429`, an incomplete completion) is followed by a
/// pause (at least the server's `Retry-After`) and getUpload, and only the
/// missing parts are sent again, a bounded number of times. Cancelling aborts the upload on the server; the budget
/// running out stops it and keeps the record for the daemon.
///
/// Peak memory: one 256 KiB read buffer and 32 bytes per part, whatever the
/// file's size, and the HTTP client's upload buffer per part in flight (the
/// client streams each part from disk).
public final class StreamingUploader: FileUploading {
    /// How often and how patiently passing failures are retried: the
    /// shared ``ShareKitCore/BackoffPolicy`` (full jitter, the server's
    /// `Retry-After` as a lower bound, capped at an hour), or a fixed schedule.
    public struct RetryPolicy: Sendable {
        /// How many retries an upload gets before its failure is returned.
        public var retries: Int
        /// The delays between retries.
        public var backoff: BackoffPolicy
        /// A fixed schedule instead of the backoff (its count is the number of retries).
        public var delays: [Duration]?

        /// Makes a policy from the shared backoff.
        /// - Parameters:
        ///   - retries: how many retries (four unless given).
        ///   - backoff: the delays (full jitter from 0.25 s, at most 2 s, unless given).
        public init(
            retries: Int = 4, backoff: BackoffPolicy = BackoffPolicy(base: .milliseconds(250), cap: .seconds(2))
        ) {
            self.retries = max(0, retries)
            self.backoff = backoff
            delays = nil
        }

        /// Makes a policy with fixed pauses (tests, and callers that want exact timing).
        /// - Parameter delays: the pause before each retry.
        public init(delays: [Duration]) {
            retries = delays.count
            backoff = BackoffPolicy()
            self.delays = delays
        }

        /// The pause before retry `index` (0-based): the schedule's or the
        /// backoff's, and never shorter than the server's `Retry-After` (capped).
        func delay(beforeRetry index: Int, retryAfter: Duration?) -> Duration {
            let wanted = retryAfter.map { min($0, backoff.retryAfterCap) } ?? .zero
            if let delays, delays.indices.contains(index) { return max(delays[index], wanted) }
            return max(backoff.delay(afterAttempt: index + 1), wanted)
        }
    }

    /// What happened during an upload, for logs and tests (never a token).
    public enum Event: Sendable, Equatable {
        /// A pass over the file for its SHA-256 began (with per-part digests
        /// when `partSize` is given): one per upload when the part size is
        /// known in advance, two otherwise.
        case hashingPass(partSize: Int64?)
        /// The one pass of the composite form began: only the parts are
        /// hashed, at the server's part size (no whole-file SHA-256).
        case compositeHashingPass(partSize: Int64)
        /// The composite form without a pass over the file: the part
        /// digests kept with it (``ShareKitUploadsInterface/UploadSource/partDigests``)
        /// are at the server's part size.
        case storedPartDigests(partSize: Int64)
        /// The server refused a part against the part digests kept with the
        /// file (`422 digest_mismatch`, its reason): the upload starts over
        /// with digests hashed from the file.
        case storedPartDigestsRefused(String)
        /// createUpload refused the composite digest (`400 invalid_digest`,
        /// the server's reason); the plain form follows.
        case compositeRefused(String)
        /// createUpload answered.
        case created(uploadID: String, partsCount: Int)
        /// An upload was resumed (from a record or after a failure) and these parts were missing.
        case resumed(uploadID: String, missingParts: [Int])
        /// The server acknowledged a part.
        case partAcknowledged(uploadID: String, part: Int)
        /// A passing failure; a retry follows after `after`.
        case retrying(String, after: Duration)
        /// The upload was completed.
        case completed(uploadID: String)
        /// The upload was aborted after a cancellation.
        case aborted(uploadID: String)
    }

    private let serverOrigin: String
    private let api: any AuthorizedAPIClient
    private let crypto: any CryptoProvider
    private let records: (any UploadRecordStore)?
    private let retry: RetryPolicy
    private let observer: (@Sendable (Event) -> Void)?
    private let partSizeHint: Mutex<Int64?>
    /// How many parts are sent at once, at least 1.
    public let partsInFlight: Int

    /// Parts sent at once unless told otherwise: while the server flushes
    /// and commits some parts it receives others. Two were the first choice
    /// (docs/adr/0024); each part's flush waits on the disk, and four keep
    /// the connections and the disk busy on a disk that flushes slowly, at
    /// the cost of two more connections and upload buffers (measured in
    /// docs/performance.md, "Large send").
    public static let defaultPartsInFlight = 4

    /// Makes an uploader for one server.
    /// - Parameters:
    ///   - api: the session's authorized client for the server.
    ///   - crypto: SHA-256.
    ///   - records: where upload records are kept for resumption; nil keeps none.
    ///   - partSizeHint: the server's `upload_part_size` if known, so per-part
    ///     digests come from the same pass as the whole-file digest; otherwise
    ///     the record store's ``UploadRecordStore/lastPartSize(serverOrigin:)``,
    ///     and learned from each createUpload.
    ///   - retry: the retry policy.
    ///   - partsInFlight: how many parts are sent at once (``defaultPartsInFlight``
    ///     unless given; values below 1 count as 1). With more than one, parts
    ///     are acknowledged, and ``Event/partAcknowledged(uploadID:part:)``
    ///     reported, in the order the server answers.
    ///   - observer: called with each ``Event``, from whichever task made it.
    public init(
        api: any AuthorizedAPIClient, crypto: any CryptoProvider, records: (any UploadRecordStore)?,
        partSizeHint: Int64? = nil, retry: RetryPolicy = RetryPolicy(),
        partsInFlight: Int = StreamingUploader.defaultPartsInFlight, observer: (@Sendable (Event) -> Void)? = nil
    ) {
        self.serverOrigin = api.origin
        self.api = api
        self.crypto = crypto
        self.records = records
        self.retry = retry
        self.observer = observer
        self.partSizeHint = Mutex(partSizeHint)
        self.partsInFlight = max(1, partsInFlight)
    }

    public func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload {
        guard source.size <= limits.fileMaxUploadBytes else {
            // What the server would answer (413 too_large), before any byte is sent.
            throw .refused(
                APIRefusal(
                    operation: "createUpload", status: 413, code: "too_large",
                    message:
                        "\(source.fileName): \(ByteCount.human(source.size)) (\(source.size) bytes) is over the "
                        + "server's limit of \(ByteCount.human(limits.fileMaxUploadBytes)) "
                        + "(\(limits.fileMaxUploadBytes) bytes, file_max_upload_bytes)"))
        }
        guard try UploadFile.identity(ofPath: source.path) == source.identity else {
            throw .failed(
                .fileChanged(
                    path: source.path,
                    reason: "\(source.path) is no longer the version to upload (size or modification time differ)"))
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
        let outcome: Result<CompletedUpload, APIError> = await withTaskCancellationHandler {
            do throws(APIError) {
                return .success(try await perform(source, limits: limits, run: run, state: state))
            } catch {
                return .failure(error)
            }
        } onCancel: {
            run.stop(.cancelled)
        }
        switch outcome {
        case .success(let done):
            return done
        case .failure(.cancelled):
            switch run.stopReason {
            case .budget:
                let id = state.record?.uploadID
                throw .retryable(
                    APIRetry(
                        kind: .budget(uploadID: id),
                        message: "the upload took too long and was handed off" + (id.map { " (upload \($0))" } ?? "")))
            case .cancelled, nil:
                if let record = state.record {
                    // A task of its own: the caller's task may be the one cancelled,
                    // and a cancelled task's requests fail before they are sent.
                    await Task { await self.abort(record) }.value
                }
                throw .cancelled
            }
        case .failure(let error):
            throw Self.outcome(error)
        }
    }

    /// The upload's failure for a step's that ended it: the API client's
    /// classification as the steps left it (a passing failure carries the
    /// reason the retries ended with); an upload gone from the server and
    /// missing parts that outlasted the retries are passing failures.
    private static func outcome(_ error: APIError) -> APIError {
        if isPartsMissing(error) {
            return .retryable(
                APIRetry(kind: .status(409, code: "incomplete"), message: "the server is missing parts of the upload"))
        }
        if let why = goneReason(error) {
            return .retryable(APIRetry(kind: .status(404, code: "upload_gone"), message: why))
        }
        if case .failed(let transport) = error, !isFileFailure(error) {
            return .retryable(APIRetry(kind: .network, message: "\(transport)"))
        }
        return error
    }

    /// What one upload has got so far, for the outcome.
    final class UploadState: @unchecked Sendable {
        var record: UploadRecord?
        /// The server refused a composite digest at completion: the rest of
        /// this upload uses the plain form.
        var plainOnly = false
        /// The upload being sent uses the part digests kept with the file.
        var usesStoredDigests = false
        /// The server refused a part against the kept digests: the rest of
        /// this upload hashes the file.
        var storedDigestsRefused = false
    }

    // MARK: The steps

    private func perform(_ source: UploadSource, limits: UploadLimits, run: UploadRun, state: UploadState)
        async throws(APIError)
        -> CompletedUpload
    {
        var attempt = 0
        var missing: [Int]? = nil
        if let stored = storedRecord(source) {
            state.record = stored
        }
        while true {
            do throws(APIError) {
                try checkStopped(run)
                if state.record == nil {
                    state.record = try await create(
                        source, limits: limits, composite: !state.plainOnly,
                        stored: state.storedDigestsRefused ? nil : source.partDigests, run: run)
                    state.usesStoredDigests =
                        state.record?.digestAlgorithm == UploadDigestAlgorithm.sha256Composite
                        && !state.storedDigestsRefused && source.partDigests?.partSize == state.record?.partSize
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
                try await sendParts(missing!, of: record, run: run)
                missing = []
                if let done = try await complete(record, run: run) {
                    removeRecord(record)
                    observer?(.completed(uploadID: record.uploadID))
                    return done
                }
                throw APIError.retryable(
                    APIRetry(
                        kind: .status(409, code: "incomplete"),
                        message: "the server is missing parts of upload \(record.uploadID)"))
            } catch .retryable(let passing) {
                let why = passing.description
                guard attempt < retry.retries else { throw .retryable(APIRetry(kind: passing.kind, message: why)) }
                let delay = retry.delay(beforeRetry: attempt, retryAfter: passing.retryAfter)
                observer?(.retrying(why, after: delay))
                try await pause(delay, run: run)
                attempt += 1
                missing = nil
            } catch {
                if let why = Self.goneReason(error) {
                    // The upload expired or was aborted on the server: start over, once per retry.
                    if let record = state.record { removeRecord(record) }
                    state.record = nil
                    guard attempt < retry.retries else {
                        throw .retryable(APIRetry(kind: .status(404, code: "upload_gone"), message: why))
                    }
                    observer?(.retrying(why, after: .zero))
                    attempt += 1
                    missing = nil
                    continue
                }
                if let record = state.record, state.usesStoredDigests, Self.isPartDigestRefused(error) {
                    // The kept digests are not the file's (the copy changed
                    // on disk without a new modification time, or whoever
                    // wrote them got them wrong): start over once, hashing it.
                    removeRecord(record)
                    state.record = nil
                    state.usesStoredDigests = false
                    state.storedDigestsRefused = true
                    observer?(.storedPartDigestsRefused(Self.refusalMessage(error)))
                    missing = nil
                    continue
                }
                if let record = state.record, !state.plainOnly, Self.isCompositeRefusedAtCompletion(error, record) {
                    // A server that took `digest_algorithm` for the plain form
                    // (one that predates it, behind limits read from its
                    // successor): start over once with the whole-file SHA-256.
                    removeRecord(record)
                    state.record = nil
                    state.plainOnly = true
                    observer?(.compositeRefused(Self.refusalMessage(error)))
                    missing = nil
                    continue
                }
                // A refusal or a changed file is final: the record describes an upload nobody finishes.
                if let record = state.record, Self.isFinalForTheFile(error) { removeRecord(record) }
                throw error
            }
        }
    }

    private func storedRecord(_ source: UploadSource) -> UploadRecord? {
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

    /// createUpload for `source`, hashing it as the server's forms need.
    /// - Parameters:
    ///   - composite: the composite form may be used.
    ///   - stored: the part digests kept with the file, used instead of a
    ///     pass over it when they are at the composite form's part size.
    private func create(
        _ source: UploadSource, limits: UploadLimits, composite: Bool, stored: FilePartDigests?, run: UploadRun
    )
        async throws(APIError) -> UploadRecord
    {
        let hint = limits.partSize ?? partSizeHint.withLock { $0 } ?? records?.lastPartSize(serverOrigin: serverOrigin)
        if let hint, composite, limits.digestAlgorithms.contains(UploadDigestAlgorithm.sha256Composite) {
            do throws(APIError) {
                return try await createComposite(source, partSize: hint, stored: stored, run: run)
            } catch .refused(let refusal) where refusal.status == 400 && refusal.code == "invalid_digest" {
                // The server's part size changed since its limits were read
                // (or it no longer takes the form): the plain form, as below.
                observer?(.compositeRefused(refusal.message))
            }
        }
        observer?(.hashingPass(partSize: hint))
        let digests = try UploadFile.hash(
            source.identity, partSize: hint, crypto: crypto, shouldStop: { run.stopReason != nil })
        guard var digests else { throw .cancelled }
        let sha256 = Hex.encode(digests.whole)
        let body = CreateUploadBody(
            fileName: source.fileName, contentType: source.contentType, size: source.size, sha256: sha256)
        let created = try await createUpload(body, run: run)
        guard created.fits(size: source.size) else {
            throw Self.unusable(created, "which do not fit a file of \(source.size) bytes")
        }
        remember(partSize: created.partSize)
        if hint != created.partSize || digests.parts.count != created.partsCount {
            // The part size was not known in advance: a second pass for the part digests.
            observer?(.hashingPass(partSize: created.partSize))
            let again = try UploadFile.hash(
                source.identity, partSize: created.partSize, crypto: crypto, shouldStop: { run.stopReason != nil })
            guard let again else { throw .cancelled }
            guard again.whole == digests.whole else {
                throw .failed(
                    .fileChanged(path: source.path, reason: "\(source.path) changed while it was being uploaded"))
            }
            digests = again
        }
        let record = UploadRecord(
            serverOrigin: serverOrigin, uploadID: created.uploadID, identity: source.identity,
            partSize: created.partSize, partsCount: created.partsCount, sha256: sha256,
            partDigests: digests.parts.map { ContentDigest(sha256: $0).base64 })
        return keep(record)
    }

    /// createUpload with the composite digest: one pass over the file hashes
    /// each part at `partSize` (the server's announced part size), and the
    /// SHA-256 of those digests concatenated in part order is announced as
    /// `sha256` with `digest_algorithm` `sha256-composite` and `part_size`.
    /// The part digests kept with the file (`stored`) take the pass's
    /// place when they are at `partSize` and fit the file's size.
    /// - Throws: the refusal of createUpload (`400 invalid_digest` when the
    ///   server's part size is another), or the failures of ``create(_:limits:composite:stored:run:)``.
    private func createComposite(
        _ source: UploadSource, partSize: Int64, stored: FilePartDigests?, run: UploadRun
    ) async throws(APIError)
        -> UploadRecord
    {
        let digests: UploadFile.Digests
        if let stored, stored.partSize == partSize,
            FilePartDigests(partSize: partSize, digests: stored.digests, fileSize: source.size) != nil
        {
            observer?(.storedPartDigests(partSize: partSize))
            digests = UploadFile.Digests(whole: [], parts: stored.digests)
        } else {
            observer?(.compositeHashingPass(partSize: partSize))
            let hashed = try UploadFile.hash(
                source.identity, partSize: partSize, wholeFile: false, crypto: crypto,
                shouldStop: { run.stopReason != nil })
            guard let hashed else { throw .cancelled }
            digests = hashed
        }
        let composite: String
        do {
            composite = Hex.encode(try crypto.sha256(contentsOf: digests.parts.flatMap { $0 }))
        } catch {
            throw .failed(.fileChanged(path: source.path, reason: "cannot hash \(source.path): \(error)"))
        }
        let body = CreateUploadBody(
            fileName: source.fileName, contentType: source.contentType, size: source.size, sha256: composite,
            digestAlgorithm: UploadDigestAlgorithm.sha256Composite, partSize: partSize)
        let created = try await createUpload(body, run: run)
        guard created.partSize == partSize, created.fits(size: source.size), created.partsCount == digests.parts.count
        else {
            throw Self.unusable(
                created, "for a composite digest of \(digests.parts.count) parts of \(partSize) bytes")
        }
        remember(partSize: created.partSize)
        let record = UploadRecord(
            serverOrigin: serverOrigin, uploadID: created.uploadID, identity: source.identity,
            partSize: created.partSize, partsCount: created.partsCount, sha256: composite,
            partDigests: digests.parts.map { ContentDigest(sha256: $0).base64 },
            digestAlgorithm: UploadDigestAlgorithm.sha256Composite)
        return keep(record)
    }

    /// A createUpload answer whose numbers cannot be used (`why` says for
    /// what): a passing failure, as an unreadable answer is.
    private static func unusable(_ created: CreatedUploadAnswer, _ why: String) -> APIError {
        .retryable(
            APIRetry(
                kind: .unreadableAnswer(status: 201),
                message: "createUpload answered part size \(created.partSize) and \(created.partsCount) parts, " + why))
    }

    /// Remembers the part size createUpload answered, in this uploader and
    /// in the record store, so the next upload's pass makes the part digests.
    private func remember(partSize: Int64) {
        partSizeHint.withLock { $0 = partSize }
        records?.rememberPartSize(partSize, serverOrigin: serverOrigin)
    }

    /// Sends createUpload with `body`.
    /// - Returns: the server's answer.
    private func createUpload(_ body: CreateUploadBody, run: UploadRun) async throws(APIError) -> CreatedUploadAnswer {
        let request: APIRequest
        do {
            request = try APIRequest(.createUpload, json: body)
        } catch {
            throw Self.step(error, operation: "createUpload")
        }
        return try await send(request, run: run, decoding: CreatedUploadAnswer.self)
    }

    /// Keeps the record of an upload just created, for a later process or
    /// attempt (without a persisted record only this process can resume;
    /// the upload still proceeds), and reports it.
    /// - Returns: the record.
    private func keep(_ record: UploadRecord) -> UploadRecord {
        try? records?.save(record)
        observer?(.created(uploadID: record.uploadID, partsCount: record.partsCount))
        return record
    }

    /// The parts the server lacks, or nil when the upload no longer exists
    /// as a pending upload (a complete one reports nothing missing).
    private func missingParts(_ record: UploadRecord, run: UploadRun) async throws(APIError) -> [Int]? {
        let request = APIRequest(.getUpload(uploadID: record.uploadID))
        let status: UploadStatusAnswer
        do {
            status = try await send(request, run: run, decoding: UploadStatusAnswer.self)
        } catch {
            if Self.goneReason(error) != nil { return nil }
            throw error
        }
        switch status.uploadState {
        case "pending":
            // Part numbers are the server's: only those of this upload count.
            let received = Set(
                status.receivedParts.compactMap { $0 >= 1 && $0 <= Int64(record.partsCount) ? Int($0) : nil })
            let acknowledged = received.reduce(Int64(0)) { $0 + length(of: $1, in: record) }
            run.acknowledge(acknowledged)
            return (1...record.partsCount).filter { !received.contains($0) }
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

    /// Sends `parts` (in this order), at most ``partsInFlight`` at a time.
    ///
    /// After a failure no further part is started, but the parts already in
    /// flight are let finish: their bytes are mostly sent, and the getUpload
    /// that follows a passing failure learns which ones arrived.
    /// - Throws: the first failure (`cancelled` when the run stopped).
    private func sendParts(_ parts: [Int], of record: UploadRecord, run: UploadRun) async throws(APIError) {
        let failure = await withTaskGroup(of: APIError?.self, returning: APIError?.self) { group in
            var waiting = parts[...]
            var running = 0
            var first: APIError?
            while true {
                while first == nil, running < partsInFlight, let part = waiting.popFirst() {
                    running += 1
                    group.addTask {
                        do throws(APIError) {
                            try await self.sendPart(part, of: record, run: run)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                guard running > 0, let finished = await group.next() else { break }
                running -= 1
                if let finished, first == nil { first = finished }
            }
            return first
        }
        if run.stopReason != nil { throw .cancelled }
        if let failure { throw failure }
    }

    private func sendPart(_ part: Int, of record: UploadRecord, run: UploadRun) async throws(APIError) {
        let offset = Int64(part - 1) * record.partSize
        let length = length(of: part, in: record)
        let request = APIRequest(
            .uploadPart(uploadID: record.uploadID, number: part), name: "uploadPart \(part)",
            headers: [
                "Content-Type": "application/octet-stream",
                "Content-Digest": ContentDigest.headerValue(base64: record.partDigests[part - 1]),
            ],
            body: .file(HTTPFileRegion(path: record.identity.path, offset: UInt64(offset), length: UInt64(length))))
        do throws(APIError) {
            _ = try await send(request, run: run) { sent in run.inFlight(part: part, bytes: Int64(sent.bytesSent)) }
        } catch {
            run.dropInFlight(part: part)
            throw error
        }
        run.acknowledgePart(part, length: length)
        observer?(.partAcknowledged(uploadID: record.uploadID, part: part))
    }

    /// Completes the upload: the result, or nil when parts are missing.
    private func complete(_ record: UploadRecord, run: UploadRun) async throws(APIError) -> CompletedUpload? {
        let request = APIRequest(.completeUpload(uploadID: record.uploadID))
        let answer: CompletedUploadAnswer
        do {
            answer = try await send(request, run: run, decoding: CompletedUploadAnswer.self)
        } catch {
            if Self.isPartsMissing(error) { return nil }
            throw error
        }
        let sha = answer.sha256 ?? record.sha256
        run.acknowledge(record.identity.size)
        return CompletedUpload(uploadID: record.uploadID, sha256: sha)
    }

    /// Aborts an upload after a cancellation, with a handle of its own (the
    /// run's is cancelled); a failure leaves the upload to expire on the server.
    private func abort(_ record: UploadRecord) async {
        removeRecord(record)
        let request = APIRequest(.abortUpload(uploadID: record.uploadID))
        let options = APICallOptions(timeouts: HTTPTimeouts(connect: .seconds(5), total: .seconds(10)))
        do {
            _ = try await api.send(request, options: options)
            observer?(.aborted(uploadID: record.uploadID))
        } catch .refused(let refusal) where refusal.status == 404 || refusal.status == 409 {
            // Gone already, or completed meanwhile: nothing is left to abort.
            observer?(.aborted(uploadID: record.uploadID))
        } catch {}
    }

    // MARK: Requests

    private func checkStopped(_ run: UploadRun) throws(APIError) {
        if run.stopReason != nil { throw .cancelled }
    }

    private func pause(_ delay: Duration, run: UploadRun) async throws(APIError) {
        let end = ContinuousClock.now + delay
        while ContinuousClock.now < end {
            try checkStopped(run)
            try? await Task.sleep(for: min(.milliseconds(50), end - ContinuousClock.now))
        }
        try checkStopped(run)
    }

    /// Sends one request through the authorized client (which refreshes
    /// the session once on a refused token) and decodes its answer.
    private func send<Answer: Decodable & Sendable>(
        _ request: APIRequest, run: UploadRun, decoding answer: Answer.Type
    ) async throws(APIError) -> Answer {
        let response = try await send(request, run: run)
        do {
            return try response.decode(Answer.self, operation: request.operation)
        } catch {
            throw Self.step(error, operation: request.operation)
        }
    }

    /// Sends one request; a failure is the API client's, as a step of the upload takes it (``step(_:operation:)``).
    private func send(
        _ request: APIRequest, run: UploadRun, progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil
    ) async throws(APIError) -> APIResponse {
        try checkStopped(run)
        do {
            return try await api.send(
                request, options: APICallOptions(progress: progress, cancellation: run.cancellation))
        } catch {
            throw run.stopReason != nil ? .cancelled : Self.step(error, operation: request.operation)
        }
    }

    // MARK: Failures

    /// A failed call as a step of the upload takes it: the API client's
    /// classification as it is, but a request that could not be made for a
    /// reason other than the file (a transport failure the client does not
    /// retry) is retried here like a passing failure, as every step is.
    private static func step(_ error: APIError, operation: String) -> APIError {
        switch error {
        case .failed(.fileChanged), .failed(.fileUnreadable): return error
        case .failed(let transport): return .retryable(APIRetry(kind: .network, message: "\(operation): \(transport)"))
        default: return error
        }
    }

    /// Why the upload is no longer pending on the server (`404`, `410`,
    /// `409 upload_not_pending`: expired or aborted), which starts it over;
    /// nil for any other failure.
    private static func goneReason(_ error: APIError) -> String? {
        guard case .refused(let refusal) = error else { return nil }
        if refusal.status == 409 && refusal.code == "upload_not_pending" {
            return "\(refusal.operation): \(refusal.message)"
        }
        if refusal.status == 404 || refusal.status == 410 {
            return "\(refusal.operation): the upload no longer exists on the server (\(refusal.code))"
        }
        return nil
    }

    /// completeUpload refused the composite digest of an upload created with
    /// it (`422 digest_mismatch`): the parts were each accepted against
    /// their digests, so the server took the digest for another form.
    private static func isCompositeRefusedAtCompletion(_ error: APIError, _ record: UploadRecord) -> Bool {
        guard case .refused(let refusal) = error, record.digestAlgorithm == UploadDigestAlgorithm.sha256Composite
        else { return false }
        return refusal.operation == "completeUpload" && refusal.status == 422 && refusal.code == "digest_mismatch"
    }

    /// A refusal's message, for an event.
    private static func refusalMessage(_ error: APIError) -> String {
        if case .refused(let refusal) = error { return refusal.message }
        return "\(error)"
    }

    /// uploadPart refused a part against its `Content-Digest` (`422 digest_mismatch`).
    private static func isPartDigestRefused(_ error: APIError) -> Bool {
        guard case .refused(let refusal) = error else { return false }
        return refusal.operation.hasPrefix("uploadPart") && refusal.status == 422 && refusal.code == "digest_mismatch"
    }

    /// completeUpload found parts missing (`409 incomplete`): send them.
    private static func isPartsMissing(_ error: APIError) -> Bool {
        guard case .refused(let refusal) = error else { return false }
        return refusal.status == 409 && refusal.code == "incomplete"
    }

    /// A refusal of the upload or a changed file: the upload record then
    /// describes an upload nobody will finish.
    private static func isFinalForTheFile(_ error: APIError) -> Bool {
        switch error {
        case .refused: return !isPartsMissing(error) && goneReason(error) == nil
        default: return isFileFailure(error)
        }
    }

    /// The file is not the version described or cannot be read.
    private static func isFileFailure(_ error: APIError) -> Bool {
        switch error {
        case .failed(.fileChanged), .failed(.fileUnreadable): return true
        default: return false
        }
    }

}
