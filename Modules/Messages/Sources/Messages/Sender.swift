public import HTTPInterface
public import MessagesInterface
import ShareCore
public import UploadsInterface

/// The one ``MessagesInterface/ShareSending`` implementation, shared by the
/// CLI and the daemon: checks the limits before any byte is sent, uploads
/// each attachment through ``UploadsInterface/FileUploading``, then creates
/// the message (or the new post) with the upload ids through
/// ``MessagesInterface/MessageCreating``.
public struct Sender: ShareSending {
    private let uploader: any FileUploading
    private let messages: any MessageCreating
    private let limits: MessageLimits
    private let budget: Duration?

    /// - Parameters:
    ///   - uploader: uploads each attachment.
    ///   - messages: creates the message.
    ///   - limits: `message_max_attachments` and `file_max_upload_bytes`.
    ///   - budget: each upload's time budget; nil for the uploader's default.
    public init(
        uploader: any FileUploading, messages: any MessageCreating, limits: MessageLimits, budget: Duration? = nil
    ) {
        self.uploader = uploader
        self.messages = messages
        self.limits = limits
        self.budget = budget
    }

    public func send(
        _ share: OutgoingShare, progress: (@Sendable (SendProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(SendError) -> SentMessage {
        try check(share)
        var uploadIDs: [String] = []
        let count = share.attachments.count
        for (index, source) in share.attachments.enumerated() {
            if cancellation?.isCancelled == true { throw .cancelled }
            if let done = share.completedUploadIDs[index] {
                uploadIDs.append(done)
                continue
            }
            var report: (@Sendable (UploadProgress) -> Void)? = nil
            if let progress {
                report = { @Sendable (value: UploadProgress) in
                    progress(.uploading(index: index, count: count, value))
                }
            }
            do {
                let done = try await uploader.upload(
                    source, limits: UploadLimits(fileMaxUploadBytes: limits.fileMaxUploadBytes), budget: budget,
                    progress: report, cancellation: cancellation)
                uploadIDs.append(done.uploadID)
                progress?(.uploaded(index: index, uploadID: done.uploadID))
            } catch {
                throw Self.classify(error, fileName: source.fileName)
            }
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        progress?(.creatingMessage)
        switch share.target.kind {
        case .thread, .channel:
            return try await messages.createMessage(
                in: share.target, clientMsgID: share.clientMsgID, text: share.text, uploadIDs: uploadIDs,
                cancellation: cancellation)
        case .newPost:
            return try await messages.createThread(
                inChannel: share.target.id, title: Self.title(of: share), clientMsgID: share.clientMsgID,
                text: share.text, uploadIDs: uploadIDs, cancellation: cancellation)
        }
    }

    /// The limits, before any request.
    private func check(_ share: OutgoingShare) throws(SendError) {
        if share.attachments.count > limits.messageMaxAttachments {
            throw .rejected(
                code: "too_many_attachments",
                message:
                    "a message can have at most \(limits.messageMaxAttachments) attachments "
                    + "(message_max_attachments); this one has \(share.attachments.count).")
        }
        for source in share.attachments where source.size > limits.fileMaxUploadBytes {
            throw .rejected(
                code: "file_too_large",
                message:
                    "\(source.fileName): \(ByteCount.human(source.size)) (\(source.size) bytes) is over the "
                    + "server's limit of \(ByteCount.human(limits.fileMaxUploadBytes)) "
                    + "(\(limits.fileMaxUploadBytes) bytes, file_max_upload_bytes).")
        }
    }

    /// The new post's title: given, else the text's first line, else the first file's name.
    static func title(of share: OutgoingShare) -> String {
        if let title = share.title, !title.allSatisfy(\.isWhitespace) { return title }
        if let line = share.text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) {
            return String(line.prefix(256))
        }
        return share.attachments.first.map(\.fileName) ?? "Shared"
    }

    /// What an upload's failure means for the send.
    static func classify(_ error: UploadError, fileName: String) -> SendError {
        switch error {
        case .rejected(let code, let message):
            let text = MessagesText.table.text(.uploadRefused, ["file": fileName, "reason": message], in: .english)
            return .rejected(code: code, message: text)
        case .retryable(let why): return .retryable(.uploadInterrupted("\(fileName): \(why)"))
        case .handedOff(let id): return .retryable(.handedOff(uploadID: id))
        case .cancelled: return .cancelled
        case .sessionUnavailable(let why): return .retryable(.sessionUnavailable(why))
        case .fileChanged(let why):
            let text = MessagesText.table.text(.fileChanged, ["file": fileName, "reason": why], in: .english)
            return .rejected(code: "file_changed", message: text)
        }
    }
}
