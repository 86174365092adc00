public import ShareKitCore
public import ShareKitDeliveryInterface
import ShareKitHTTPInterface
import ShareKitMessagesInterface
public import ShareKitServerAPIInterface
import ShareKitUploadsInterface
import Synchronization

/// The one ``ShareKitDeliveryInterface/ShareDelivering`` implementation: the share
/// a keeper holds is checked against the server's limits, each attachment
/// goes through the uploader, then the message through the message client;
/// the engine reads their failures itself (the API client's
/// ``ShareKitServerAPIInterface/APIError`` as it classified it, an upload's with the
/// file added, never classified again) and decides the outcome, which the keeper then carries out:
///
/// - sent: the keeper lets go of the share (or marks it sent);
/// - kept: a passing failure keeps it for a later attempt, unless Ctrl-C
///   came while the message's answer was awaited, which is a cancel that
///   keeps the share;
/// - refused: refused for good at the stage the send had reached;
/// - cancelled: kept or removed as the request asks, but always kept when
///   the message may be on the server.
public struct DeliveryEngine: ShareDelivering {
    /// Makes the engine; it holds no state between deliveries.
    public init() {}

    /// How an attempt ended, as the outcome needs it: the message, the
    /// reason a share is kept, the code and reason of a refusal, or a cancel.
    private enum Attempt {
        case sent(SentMessage)
        case retry(RetryReason)
        case refuse(code: String, message: String)
        case cancel
    }

    public func deliver<Keeper: DeliveryKeeping>(_ request: DeliveryRequest, keeping keeper: Keeper)
        async throws(Keeper.Failure) -> DeliveryOutcome
    {
        let interruption = request.interruption
        defer { interruption?.finish() }
        let share: OutgoingShare
        switch keeper.share() {
        case .readable(let value): share = value
        case .unusable(let refusal): return try refuse(refusal, keeper)
        }
        // The stage a refusal names: the message once it is asked for.
        let stage = Mutex(DeliveryStage.upload)
        let report = request.progress
        let progress: @Sendable (SendProgress) -> Void = { event in
            switch event {
            case .uploaded(let index, let uploadID):
                report?(event)
                keeper.uploaded(index: index, uploadID: uploadID)
            case .creatingMessage:
                stage.withLock { $0 = .message }
                interruption?.messageRequested()
                report?(event)
            case .uploading:
                report?(event)
            }
        }
        let outcome = await send(
            share, to: request.server, progress: progress, cancellation: interruption?.cancellation)
        // Ctrl-C after the message was asked for, and no answer that says
        // what the server holds: whatever was asked, the share stays, and
        // the next attempt asks again with the same client_msg_id and gets
        // the stored message if there is one.
        let unknown = interruption?.interruptedAfterRequest ?? false
        switch outcome {
        case .sent(let message):
            try keeper.sent(message)
            return .sent(message)
        case .retry(let reason):
            // A message asked for and not answered may be on the server.
            let requested = stage.withLock { $0 } == .message
            let next = try keeper.keep(reason, messageRequested: requested, interrupted: unknown)
            if unknown { return .cancelled(kept: true, mayBeOnServer: true) }
            return .kept(reason, in: keeper.place, nextAttemptAt: next)
        case .refuse(let code, let message):
            return try refuse(
                DeliveryRefusal(stage: stage.withLock { $0 }, code: code, message: message), keeper)
        case .cancel:
            let kept = try keeper.cancelled(keep: request.keepsOnCancel || unknown, mayBeOnServer: unknown)
            return .cancelled(kept: kept, mayBeOnServer: unknown)
        }
    }

    /// Refuses the share and says where the keeper kept it.
    private func refuse<Keeper: DeliveryKeeping>(_ refusal: DeliveryRefusal, _ keeper: Keeper)
        throws(Keeper.Failure) -> DeliveryOutcome
    {
        var refused = refusal
        refused.keptIn = try keeper.refuse(refusal)
        return .refused(refused)
    }

    // MARK: The send

    /// One attempt: the limits before any request, each attachment not yet
    /// on the server, then the message (or the new post) with the upload ids.
    private func send(
        _ share: OutgoingShare, to server: DeliveryServer, progress: @escaping @Sendable (SendProgress) -> Void,
        cancellation: HTTPCancellation?
    ) async -> Attempt {
        if let why = server.signedOutReason { return .retry(.sessionUnavailable(why)) }
        if let refusal = Self.overLimits(share, server.limits) { return refusal }
        var uploadIDs: [String] = []
        let count = share.attachments.count
        for (index, source) in share.attachments.enumerated() {
            if cancellation?.isCancelled == true { return .cancel }
            if let done = share.completedUploadIDs[index] {
                uploadIDs.append(done)
                continue
            }
            do {
                let done = try await server.uploader.upload(
                    source,
                    limits: UploadLimits(
                        fileMaxUploadBytes: server.limits.fileMaxUploadBytes, partSize: server.limits.uploadPartSize,
                        digestAlgorithms: server.limits.uploadDigestAlgorithms),
                    budget: server.budget, progress: { progress(.uploading(index: index, count: count, $0)) },
                    cancellation: cancellation)
                uploadIDs.append(done.uploadID)
                progress(.uploaded(index: index, uploadID: done.uploadID))
            } catch {
                return Self.stop(uploading: error, fileName: source.fileName)
            }
        }
        if cancellation?.isCancelled == true { return .cancel }
        progress(.creatingMessage)
        do throws(APIError) {
            switch share.target.kind {
            case .thread, .channel:
                return .sent(
                    try await server.messages.createMessage(
                        in: share.target, clientMsgID: share.clientMsgID, text: share.text, uploadIDs: uploadIDs,
                        cancellation: cancellation))
            case .newPost:
                return .sent(
                    try await server.messages.createThread(
                        inChannel: share.target.id, title: Self.title(of: share), clientMsgID: share.clientMsgID,
                        text: share.text, uploadIDs: uploadIDs, cancellation: cancellation))
            }
        } catch {
            return Self.stop(error)
        }
    }

    /// The limits, before any request: too many files or a file too large
    /// is refused with the server's code for it.
    private static func overLimits(_ share: OutgoingShare, _ limits: MessageLimits) -> Attempt? {
        if share.attachments.count > limits.messageMaxAttachments {
            return .refuse(
                code: "too_many_attachments",
                message:
                    "a message can have at most \(limits.messageMaxAttachments) attachments "
                    + "(message_max_attachments); this one has \(share.attachments.count).")
        }
        for source in share.attachments where source.size > limits.fileMaxUploadBytes {
            return .refuse(
                code: "file_too_large",
                message:
                    "\(source.fileName): \(ByteCount.human(source.size)) (\(source.size) bytes) is over the "
                    + "server's limit of \(ByteCount.human(limits.fileMaxUploadBytes)) "
                    + "(\(limits.fileMaxUploadBytes) bytes, file_max_upload_bytes).")
        }
        return nil
    }

    /// The new post's title: given, else the text's first line, else the first file's name.
    static func title(of share: OutgoingShare) -> String {
        if let title = share.title, !title.allSatisfy(\.isWhitespace) { return title }
        if let line = share.text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) {
            return String(line.prefix(256))
        }
        return share.attachments.first.map(\.fileName) ?? "Shared"
    }

    /// What the message request's failure means for the share: the API
    /// client's classification read as it is, each case one way, adding
    /// nothing but the words. A passing failure (no network, a timeout,
    /// `5xx`, `429` with its `Retry-After`, an answer that could not be
    /// read) or an ended session, which a new session (the daemon's, a
    /// login) helps, keeps the share; a refusal by the server or a request
    /// that cannot be made refuses it (the code, and the reason in English
    /// as a manifest and the outbox keep it: the status's meaning for the
    /// share, then the server's words); a cancel is a cancel.
    private static func stop(_ error: APIError) -> Attempt {
        switch error {
        case .sessionEnded(let why):
            return .retry(.sessionUnavailable(why))
        case .retryable(let retry):
            switch retry.kind {
            case .network: return .retry(.noNetwork(retry.message))
            case .timeout: return .retry(.timeout(retry.message))
            case .session: return .retry(.sessionUnavailable(retry.message))
            case .budget(let uploadID): return .retry(.handedOff(uploadID: uploadID))
            case .unreadableAnswer(let status): return .retry(.serverError(status: status, code: "unreadable_answer"))
            case .status(429, _): return .retry(.rateLimited(retryAfterSeconds: retry.retryAfterSeconds))
            case .status(let status, let code):
                return .retry(.serverError(status: status, code: code, retryAfterSeconds: retry.retryAfterSeconds))
            }
        case .refused(let refusal):
            return .refuse(
                code: refusal.code,
                message: MessagesText.refusalMessage(
                    status: refusal.status, code: refusal.code, detail: refusal.message))
        case .failed(let transport):
            return .refuse(
                code: "request_failed",
                message: MessagesText.table.text(.requestFailed, ["reason": transport.summary], in: .english))
        case .cancelled:
            return .cancel
        }
    }

    /// What became of a request that failed so, as a share would be told
    /// it, in every language: "not sent yet" with the reason, "not sent"
    /// with the refusal, or cancelled. The engine's own reading
    /// (``stop(_:)``), for a request outside a delivery (share-daemon's
    /// request for the server's limits), so that no second reading exists.
    /// - Parameter error: the API client's classification.
    /// - Returns: the words.
    public static func text(of error: APIError) -> LocalizedText {
        let table = MessagesText.table
        switch stop(error) {
        case .retry(let reason):
            return LocalizedText { table.text(.notSentYet, ["reason": reason.localizedText($0)], in: $0) }
        case .refuse(let code, let message):
            let reason = MessagesText.localizedRejection(code: code, message: message)
            return LocalizedText { table.text(.notSent, ["message": reason($0)], in: $0) }
        case .sent, .cancel:
            return table.localized(.cancelled)
        }
    }

    /// What an upload's failure means, with its file added: the API
    /// client's classification as the uploader ended with it, read as a
    /// message request's is but in the words of an upload (the file named,
    /// a time budget that ran out handed off for a later attempt).
    private static func stop(uploading error: APIError, fileName: String) -> Attempt {
        let table = MessagesText.table
        switch error {
        case .retryable(let retry):
            if case .budget(let uploadID) = retry.kind { return .retry(.handedOff(uploadID: uploadID)) }
            return .retry(.uploadInterrupted("\(fileName): \(retry.message)"))
        case .refused(let refusal):
            let reason = "\(refusal.operation): \(refusal.message)"
            return .refuse(
                code: refusal.code,
                message: table.text(.uploadRefused, ["file": fileName, "reason": reason], in: .english))
        case .sessionEnded(let why):
            return .retry(.sessionUnavailable(why))
        case .failed(.fileChanged(_, let why)), .failed(.fileUnreadable(_, let why)):
            return .refuse(
                code: "file_changed",
                message: table.text(.fileChanged, ["file": fileName, "reason": why], in: .english))
        case .failed(let transport):
            return .retry(.uploadInterrupted("\(fileName): \(transport)"))
        case .cancelled:
            return .cancel
        }
    }
}
