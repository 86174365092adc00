import ShareKitCore
import ShareKitHTTPInterface
public import ShareKitMessagesInterface
import ShareKitServerAPIInterface
public import ShareKitUploadsInterface

/// The share's server as the engine sends to it: its uploader and its
/// message client (one session), and the limits checked before any byte
/// is sent.
public struct DeliveryServer: Sendable {
    /// Uploads each attachment (resumable, within `budget`).
    public var uploader: any FileUploading
    /// Creates the message or the new post.
    public var messages: any MessageCreating
    /// `message_max_attachments` and `file_max_upload_bytes`.
    public var limits: MessageLimits
    /// Each upload's time budget; nil for the uploader's default.
    public var budget: Duration?
    /// Why there is no session at the server (logged out there), or nil:
    /// the engine then keeps the share without asking anything
    /// (``signedOut(_:)``).
    public var signedOutReason: String?

    /// Makes a value.
    public init(
        uploader: any FileUploading, messages: any MessageCreating, limits: MessageLimits, budget: Duration? = nil
    ) {
        self.uploader = uploader
        self.messages = messages
        self.limits = limits
        self.budget = budget
    }

    /// A server this device has no session at: a share for it waits (kept,
    /// the session unavailable) rather than being lost, until the person
    /// logs in there again; nothing is uploaded or asked.
    /// - Parameter why: the reason, for the kept share.
    /// - Returns: the server.
    public static func signedOut(_ why: String) -> DeliveryServer {
        var server = DeliveryServer(
            uploader: SignedOut(), messages: SignedOut(),
            limits: MessageLimits(messageMaxAttachments: Int.max, fileMaxUploadBytes: Int64.max))
        server.signedOutReason = why
        return server
    }
}

/// The uploader and message client of a server with no session: the engine
/// never calls them (it reads ``DeliveryServer/signedOutReason`` first);
/// should anything else, every call fails as an ended session.
private struct SignedOut: FileUploading, MessageCreating {
    func upload(
        _ source: UploadSource, limits: UploadLimits, budget: Duration?,
        progress: (@Sendable (UploadProgress) -> Void)?, cancellation: HTTPCancellation?
    ) async throws(APIError) -> CompletedUpload {
        throw .sessionEnded("not signed in")
    }

    func createMessage(
        in target: ShareTarget, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        throw .sessionEnded("not signed in")
    }

    func createThread(
        inChannel channelID: String, title: String, clientMsgID: UUIDv7, text: String, uploadIDs: [String],
        cancellation: HTTPCancellation?
    ) async throws(APIError) -> SentMessage {
        throw .sessionEnded("not signed in")
    }

    func instanceLimits(cancellation: HTTPCancellation?) async throws(APIError) -> InstanceLimits {
        throw .sessionEnded("not signed in")
    }
}
