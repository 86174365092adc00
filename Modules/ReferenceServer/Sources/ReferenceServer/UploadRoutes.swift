import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSQLInterface
import ShareKitWireContract

/// The upload protocol (docs/protocol.md, "Uploads"): create an upload session,
/// send its parts in any order (each checked against its `Content-Digest`),
/// resume through getUpload, complete with a whole-file SHA-256 check (or,
/// for the composite form, a check of the part digests already verified),
/// or abort. Only the creator sees an upload; for anyone else it does not exist.
enum UploadRoutes {
    /// How many missing part numbers a `409 incomplete` names before it abbreviates.
    static let missingPartsListed = 100

    // MARK: createUpload

    static func create(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let body = try JSONBody.decode(UploadCreate.self, from: context.body, refusingNUL: false)
        let name = body.fileName
        guard !name.isEmpty, name.utf8.count <= 255, !name.contains("/"), !name.unicodeScalars.contains("\0") else {
            throw Problems.badRequest(
                "file_name must be 1 to 255 bytes of UTF-8 without \"/\" or NUL.", code: "invalid_file_name")
        }
        try JSONBody.refuseNUL(in: body)
        guard body.size >= 0 else { throw Problems.badRequest("size must be a whole number of bytes, 0 or more.") }
        let sha256 = body.sha256.lowercased()
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ isHexDigit($0) }) else {
            throw Problems.badRequest(
                "sha256 must be the file's SHA-256 in 64 hexadecimal digits.", code: "invalid_digest")
        }
        let settings = server.settings
        let algorithm = try digestAlgorithm(of: body, settings: settings)
        guard body.size <= settings.fileMaxUploadBytes else {
            throw Problems.tooLarge(
                "The file is \(body.size) bytes; file_max_upload_bytes is \(settings.fileMaxUploadBytes).")
        }
        let mediaType = mediaTypeOf(body.contentType)
        guard settings.acceptedContentTypes.contains(where: { mediaTypeOf($0) == mediaType }) else {
            throw Problems.unsupportedType(body.contentType)
        }
        try UploadExpiry.sweepSome(server)
        let partSize = settings.uploadPartSize
        let partsCount = max(1, body.size / partSize + (body.size % partSize == 0 ? 0 : 1))
        let id = server.ids.id("up")
        let now = server.now
        let expiresAt = now + settings.uploadTTLSeconds
        try server.db.transaction {
            // The sum and the insert in one transaction, under the user's
            // quota lock: parallel creates, on any process, cannot together
            // pass the quota.
            try server.lockKeys(["quota\n" + session.username])
            try checkQuota(server, username: session.username, adding: body.size)
            try server.db.execute(
                """
                INSERT INTO uploads (id, username, file_name, content_type, size, sha256, part_size, parts_count,
                    state, created_at, expires_at, digest_algorithm)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)
                """,
                [
                    .text(id), .text(session.username), .text(name),
                    .text(body.contentType.trimmingCharacters(in: .whitespaces)),
                    .integer(body.size), .text(sha256), .integer(partSize), .integer(partsCount), .integer(now),
                    .integer(expiresAt), .text(algorithm),
                ])
        }
        return JSONBody.response(
            201,
            UploadCreated(
                uploadID: id, partSize: partSize, partsCount: partsCount, uploadState: "pending",
                expiresAt: RFC3339.string(
                    Date(timeIntervalSince1970: TimeInterval(expiresAt)), precision: .milliseconds)))
    }

    /// The form of createUpload's `sha256`: the plain SHA-256 when
    /// `digest_algorithm` is left out or `sha256`; the composite only when
    /// this server takes it (`upload_digest_algorithms`) and `part_size`
    /// names the server's part size, which the part digests were cut at.
    /// - Throws: `400 invalid_digest` for any other form, a composite
    ///   without `part_size`, or one cut at another part size.
    static func digestAlgorithm(of body: UploadCreate, settings: InstanceSettings) throws -> String {
        let algorithm = body.digestAlgorithm ?? UploadDigestAlgorithm.sha256
        guard settings.uploadDigestAlgorithms.contains(algorithm) else {
            throw Problems.badRequest(
                "digest_algorithm must be one of \(settings.uploadDigestAlgorithms.joined(separator: ", ")).",
                code: "invalid_digest")
        }
        if algorithm == UploadDigestAlgorithm.sha256Composite {
            guard body.partSize == settings.uploadPartSize else {
                throw Problems.badRequest(
                    "A sha256-composite digest must be cut at this server's part_size, "
                        + "\(settings.uploadPartSize) bytes (upload_part_size); hash the parts again at that size.",
                    code: "invalid_digest")
            }
        }
        // `part_size` with the plain form says nothing the plain digest
        // needs: it is ignored, as a server before the composite form
        // ignores both members.
        return algorithm
    }

    /// The longest `Retry-After` of `429 upload_quota_exceeded`, in seconds.
    static let quotaRetryAfterLimit: Int64 = 300

    /// Refuses an upload that would take the user's unfinished uploads
    /// (pending, not expired) over `upload_pending_bytes_per_user`.
    /// `Retry-After` is the time until the first of them expires, at most
    /// ``quotaRetryAfterLimit``: completing or aborting one frees its bytes sooner.
    /// - Throws: ``ProblemResponse`` with `429 upload_quota_exceeded`.
    static func checkQuota(_ server: ReferenceServer, username: String, adding size: Int64) throws {
        let quota = server.settings.uploadPendingBytesPerUser
        let now = server.now
        guard
            let row = try server.db.query(
                """
                SELECT COALESCE(SUM(size), 0) AS pending, MIN(expires_at) AS first_expiry FROM uploads
                WHERE username = ? AND state = 'pending' AND expires_at > ?
                """, [.text(username), .integer(now)]
            ).first
        else { return }
        let pending = try row.get("pending", as: Int64.self)
        guard pending > quota - size else { return }
        let firstExpiry = try row.get("first_expiry", as: Int64?.self) ?? now + 1
        let wait = min(max(firstExpiry - now, 1), quotaRetryAfterLimit)
        throw ProblemResponse(
            response: Problems.uploadQuotaExceeded(
                "Your unfinished uploads hold \(pending) bytes; \(size) more would be over "
                    + "upload_pending_bytes_per_user (\(quota) bytes). Complete or abort an upload, "
                    + "or wait for one to expire."
            ).response(headers: ["Retry-After": String(wait)]))
    }

    // MARK: uploadPart

    /// Checks an uploadPart request from its head alone, before a byte of the
    /// body is read, and streams an acceptable body to an ``UploadPartSink``.
    ///
    /// Everything that can be refused here is: the caller (DPoP), the
    /// upload (owner, state, expiry), the part number, `Content-Length` and
    /// `Content-Digest`. A refusal is answered at once, without reading the
    /// part. Route problems are returned as `.reject` rather than thrown,
    /// because the engine would turn anything but an ``HTTPProblem`` into a 500.
    static func prepareUploadPart(_ server: ReferenceServer, head: HTTPRequestHead, route: Route) throws
        -> HTTPBodyDisposition
    {
        do {
            return .stream(try makeSink(server, head: head, route: route))
        } catch let problem as HTTPProblem {
            return .reject(finalize(server, problem.response()))
        } catch let problem as ProblemResponse {
            return .reject(finalize(server, problem.response))
        } catch let error as SQLError {
            return .reject(finalize(server, storageUnavailable(error)))
        } catch let error as ReferenceServerError where error.isOutOfSpace {
            return .reject(finalize(server, insufficientStorage()))
        }
    }

    /// The buffered path of uploadPart. The engine never takes it (prepare
    /// always streams or rejects this route); a caller that hands a whole
    /// body to `respond` gets the same checks and the same sink.
    static func part(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        switch try prepareUploadPart(server, head: context.head, route: context.route) {
        case .reject(let response):
            return response
        case .buffer:
            return finalize(server, HTTPProblem(status: 400, code: "bad_request", title: "Bad request").response())
        case .stream(let sink):
            do {
                try context.body.withUnsafeBytes { try sink.write($0) }
            } catch {
                sink.abort(.sinkFailed)
                throw error
            }
            return try sink.finish()
        }
    }

    private static func makeSink(_ server: ReferenceServer, head: HTTPRequestHead, route: Route) throws
        -> UploadPartSink
    {
        let context = RequestContext(head: head, body: [], route: route)
        let session = try Authenticator.authenticate(server, context)
        let upload = try UploadRecord.load(server, id: context.parameter("id"), username: session.username)
        guard upload.isPending else { throw UploadRecord.notPending(upload) }
        let number = context.parameter("n")
        guard number.utf8.count <= 9, number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(number),
            (1...upload.partsCount).contains(n)
        else {
            throw Problems.badRequest(
                "The part number must be from 1 to \(upload.partsCount) for this upload.", code: "invalid_part")
        }
        let expected = upload.expectedLength(ofPart: n)
        let lengths = head.headers.values(for: "Content-Length")
        guard !head.headers.contains("Transfer-Encoding"), lengths.count == 1,
            lengths[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int64(lengths[0]), length == expected
        else { throw wrongPartSize(part: n, expected: expected) }
        guard let digest = ContentDigest.parse(head.headers.values(for: "Content-Digest")) else {
            throw Problems.badRequest(
                "Send Content-Digest: sha-256=:<base64 of the part's SHA-256>: (RFC 9530).", code: "invalid_digest")
        }
        do {
            return try UploadPartSink(
                server: server, upload: upload, part: n, expectedLength: expected, expectedDigest: digest.sha256)
        } catch let error as ReferenceServerError {
            // An abort or the expiry sweep may have removed the directory since the check above.
            let current = try UploadRecord.load(server, id: upload.id, username: session.username)
            guard current.isPending else { throw UploadRecord.notPending(current) }
            throw error
        }
    }

    // MARK: getUpload

    static func get(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let upload = try UploadRecord.load(server, id: context.parameter("id"), username: session.username)
        let received = try server.db.query(
            "SELECT part FROM upload_parts WHERE upload_id = ? ORDER BY part", [.text(upload.id)]
        ).map { try $0.get("part", as: Int64.self) }
        return JSONBody.response(
            200,
            UploadStatus(
                uploadID: upload.id, uploadState: upload.state, size: upload.size, partSize: upload.partSize,
                receivedParts: received))
    }

    // MARK: completeUpload

    /// What a completion attempt found, decided inside one transaction.
    private enum Completion {
        case complete
        case missing([Int])
        case mismatch
    }

    static func complete(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let upload = try UploadRecord.load(server, id: context.parameter("id"), username: session.username)
        if upload.isComplete { return completed(upload) }
        guard upload.isPending else { throw UploadRecord.notPending(upload) }
        let snapshot = try partDigests(server, upload.id)
        let missing = (1...upload.partsCount).filter { snapshot[$0] == nil }
        guard missing.isEmpty else { throw incomplete(upload, missing: missing) }
        if upload.isComposite {
            return try completeComposite(server, upload, snapshot: snapshot)
        }
        // Hashing reads the whole file; it runs outside any transaction so
        // other requests are not held up, and the transaction below checks
        // that no part changed meanwhile. The stored parts matching the
        // announced sha256 proves every part intact as well (each part is
        // the file's bytes at its place, and each was checked against its
        // Content-Digest as it arrived), so each part is hashed again only
        // when the whole does not match, to tell a damaged part (sent again)
        // from a file that was never the announced one.
        let whole = try UploadFiles.hashWhole(server, upload.id, count: upload.partsCount)
        var damaged: [Int] = []
        var wholeMatches = whole.map { Hex.encode($0) == upload.sha256 } ?? false
        if !wholeMatches {
            let read = try UploadFiles.hashParts(server, upload.id, count: upload.partsCount)
            damaged = (1...upload.partsCount).filter { n in
                guard let digest = read.parts[n] ?? nil else { return true }
                return ContentDigest(sha256: digest).headerValue != snapshot[n]
            }
            wholeMatches = Hex.encode(read.whole) == upload.sha256
        }
        let outcome: Completion = try server.db.transaction {
            if try isCompleteAlready(server, upload, snapshot: snapshot) { return .complete }
            if !damaged.isEmpty {
                // A stored part no longer matches the digest it was accepted
                // with (lost or damaged on disk): forget it so it is sent again.
                for n in damaged {
                    try server.db.execute(
                        "DELETE FROM upload_parts WHERE upload_id = ? AND part = ?",
                        [.text(upload.id), .integer(Int64(n))])
                }
                return .missing(damaged)
            }
            guard wholeMatches else { return .mismatch }
            try server.db.execute(
                "UPDATE uploads SET state = 'complete', verified_by = 'file' WHERE id = ?", [.text(upload.id)])
            return .complete
        }
        switch outcome {
        case .complete:
            return completed(upload)
        case .missing(let parts):
            for n in parts { UploadFiles.remove(UploadFiles.partPath(server, upload.id, part: n)) }
            throw incomplete(upload, missing: parts)
        case .mismatch:
            throw Problems.unprocessable(
                "digest_mismatch",
                "The parts of upload \(upload.id) do not add up to the announced sha256; resend the parts or start over."
            )
        }
    }

    /// Completes an upload announced with the composite digest: the SHA-256
    /// of the digests its parts were verified against as they arrived
    /// (`upload_parts.digest`), concatenated in part order, must be the
    /// announced one. No part is read again: that is the point of the form
    /// (docs/adr/0040-composite-upload-digest.md), so a part damaged on the
    /// server's disk after it was stored is not noticed here.
    private static func completeComposite(_ server: ReferenceServer, _ upload: UploadRecord, snapshot: [Int: String])
        throws -> HTTPResponse
    {
        var concatenated: [UInt8] = []
        concatenated.reserveCapacity(32 * upload.partsCount)
        for n in 1...upload.partsCount {
            // The server wrote each digest itself; one that does not parse is
            // treated as a part to send again (the new row replaces it).
            guard let stored = snapshot[n].flatMap({ ContentDigest.parse([$0]) }) else {
                throw incomplete(upload, missing: [n])
            }
            concatenated += stored.sha256
        }
        let matches = Hex.encode(try server.crypto.sha256(contentsOf: concatenated)) == upload.sha256
        let outcome: Completion = try server.db.transaction {
            if try isCompleteAlready(server, upload, snapshot: snapshot) { return .complete }
            guard matches else { return .mismatch }
            try server.db.execute(
                "UPDATE uploads SET state = 'complete', verified_by = 'part_digests' WHERE id = ?", [.text(upload.id)])
            return .complete
        }
        guard case .complete = outcome else {
            throw Problems.unprocessable(
                "digest_mismatch",
                "The part digests of upload \(upload.id) do not add up to the announced sha256-composite digest; "
                    + "resend the parts or start over.")
        }
        return completed(upload)
    }

    /// The first step of completion's transaction: the upload as it is now
    /// must still be pending (or complete already) with the parts it had
    /// when completion looked.
    /// - Returns: true when another request completed it meanwhile.
    /// - Throws: `404 upload_expired`, `409 upload_not_pending`, `409 upload_changed`.
    private static func isCompleteAlready(_ server: ReferenceServer, _ upload: UploadRecord, snapshot: [Int: String])
        throws -> Bool
    {
        let current = try reload(server, upload.id)
        if current.isComplete { return true }
        if current.isExpired(now: server.now) { throw UploadRecord.expired(upload.id) }
        guard current.isPending else { throw UploadRecord.notPending(current) }
        guard try partDigests(server, upload.id) == snapshot else {
            throw Problems.conflict(
                "upload_changed", "A part of upload \(upload.id) was replaced during completion; complete it again.")
        }
        return false
    }

    // MARK: abortUpload

    static func abort(_ server: ReferenceServer, _ context: RequestContext) throws -> HTTPResponse {
        let session = try Authenticator.authenticate(server, context)
        let upload = try UploadRecord.load(server, id: context.parameter("id"), username: session.username)
        try server.db.transaction {
            let current = try reload(server, upload.id)
            if current.isComplete,
                try !server.db.query(
                    "SELECT 1 FROM message_attachments WHERE upload_id = ? LIMIT 1", [.text(upload.id)]
                ).isEmpty
            {
                throw Problems.conflict(
                    "upload_attached", "Upload \(upload.id) is attached to a message and cannot be aborted.")
            }
            try server.db.execute("UPDATE uploads SET state = 'aborted' WHERE id = ?", [.text(upload.id)])
            try server.db.execute("DELETE FROM upload_parts WHERE upload_id = ?", [.text(upload.id)])
        }
        // After the commit: a part finishing meanwhile sees `aborted` and is not renamed in.
        UploadFiles.removeAll(server, upload.id)
        return HTTPResponse(status: 204)
    }

    // MARK: Helpers

    /// Adds what ``ReferenceServer/respond(to:body:)`` adds to every other
    /// answer (the route for the log, a fresh nonce when nonces are
    /// required): uploadPart's answers come from prepare and the sink, not from respond.
    static func finalize(_ server: ReferenceServer, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.routeTemplate = WireOperation.uploadPart.template
        server.attachNonce(to: &response)
        return response
    }

    /// The answer for a database that cannot be used right now, as respond
    /// gives it: `507 insufficient_storage` when its disk is full, else
    /// `503 storage_unavailable`.
    static func storageUnavailable(_ error: SQLError) -> HTTPResponse {
        if case .full = error { return insufficientStorage() }
        return HTTPProblem(status: 503, code: "storage_unavailable", title: "Storage unavailable", detail: "\(error)")
            .response(headers: ["Retry-After": "1"])
    }

    /// How long a client waits after `507 insufficient_storage`, in seconds.
    static let insufficientStorageRetryAfter = 30

    /// The answer for a full disk: nothing of the request was kept, the
    /// upload stays as it was (resumable).
    static func insufficientStorage() -> HTTPResponse {
        Problems.insufficientStorage.response(headers: ["Retry-After": String(insufficientStorageRetryAfter)])
    }

    static func wrongPartSize(part: Int, expected: Int64) -> HTTPProblem {
        Problems.badRequest(
            "Part \(part) must be sent with Content-Length: \(expected) and exactly that many bytes.",
            code: "wrong_part_size")
    }

    private static func incomplete(_ upload: UploadRecord, missing: [Int]) -> HTTPProblem {
        var list = missing.prefix(missingPartsListed).map(String.init).joined(separator: ", ")
        if missing.count > missingPartsListed { list += " and \(missing.count - missingPartsListed) more" }
        return Problems.conflict(
            "incomplete", "Upload \(upload.id) is missing part(s) \(list) of \(upload.partsCount).")
    }

    private static func completed(_ upload: UploadRecord) -> HTTPResponse {
        JSONBody.response(
            200,
            UploadCompleted(
                uploadID: upload.id, sha256: upload.sha256,
                digestAlgorithm: upload.isComposite ? upload.digestAlgorithm : nil))
    }

    /// Reads an upload again inside a transaction, its owner already
    /// checked, and locks its row until the transaction ends: a part, a
    /// completion and an abort of one upload, on any process, take turns.
    static func reload(_ server: ReferenceServer, _ id: String) throws -> UploadRecord {
        guard
            let row = try server.db.query(
                "SELECT \(UploadRecord.columns) FROM uploads WHERE id = ?\(server.db.dialect.forUpdate)", [.text(id)]
            ).first
        else { throw Problems.notFound("Upload \(id)") }
        return try UploadRecord(row: row)
    }

    /// The received parts and the digests they were accepted with.
    private static func partDigests(_ server: ReferenceServer, _ uploadID: String) throws -> [Int: String] {
        var digests: [Int: String] = [:]
        for row in try server.db.query("SELECT part, digest FROM upload_parts WHERE upload_id = ?", [.text(uploadID)]) {
            digests[try row.get("part", as: Int.self)] = try row.get("digest", as: String.self)
        }
        return digests
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters.
    static func mediaTypeOf(_ contentType: String) -> String {
        // Split on the scalar, not the Character: a ";" followed by a
        // combining mark or an emoji modifier is one Character, and the
        // parameters would stay part of the type.
        let scalars = contentType.unicodeScalars
        let end = scalars.firstIndex(of: ";") ?? scalars.endIndex
        return String(scalars[..<end]).trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

}
