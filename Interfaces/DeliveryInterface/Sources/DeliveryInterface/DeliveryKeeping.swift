import HTTPInterface
public import MessagesInterface
import ServerAPIInterface
import ShareCore
public import UploadsInterface

/// The place a share is kept while it is delivered (the CLI's locked inbox
/// entry, an outbox item the daemon claimed), as the delivery engine sees
/// it: it gives the share, records what an attempt achieved, and keeps,
/// refuses or lets go of the share as the engine decides.
///
/// `Failure` is how the keeper's own storage fails: the outbox's queue
/// failing stops the daemon's pass; the inbox writes of `share send` are
/// best effort (`Never`).
public protocol DeliveryKeeping: Sendable {
    /// How the keeper's storage fails.
    associatedtype Failure: Error

    /// Where this keeper keeps a share it does not let go of.
    var place: DeliveryPlace { get }

    /// The share to send, its files as they are on disk now.
    /// - Returns: the share, or why it cannot be sent as it was kept
    ///   (stage ``DeliveryStage/keptShare``), which the engine then refuses.
    func share() -> KeptShare

    /// An attachment completed on the server: kept before the message is
    /// asked for, so that a later attempt attaches the same upload (the
    /// server's idempotency record names the upload ids). Best effort.
    /// - Parameters:
    ///   - index: the attachment's index in the share.
    ///   - uploadID: the server's upload id.
    func uploaded(index: Int, uploadID: String)

    /// The share was delivered: let go of it (or mark it sent).
    /// - Parameter message: the message the server holds.
    func sent(_ message: SentMessage) throws(Failure)

    /// Keeps the share for a later attempt.
    /// - Parameters:
    ///   - reason: why it was not sent, as the API client classified it.
    ///   - messageRequested: the request for the message went out (its
    ///     answer may not have come): the message may be on the server.
    ///   - interrupted: the person interrupted while the message's answer
    ///     was awaited; the share waits its undo window.
    /// - Returns: when the next attempt is due (milliseconds since 1970), if the keeper sets a time.
    func keep(_ reason: RetryReason, messageRequested: Bool, interrupted: Bool) throws(Failure) -> Int64?

    /// Refuses the share for good.
    /// - Parameter refusal: the stage, the code and the reason.
    /// - Returns: where the refused share is kept, nil when it was removed.
    func refuse(_ refusal: DeliveryRefusal) throws(Failure) -> DeliveryPlace?

    /// The delivery was cancelled.
    /// - Parameters:
    ///   - keep: whether the share should stay (`--on-cancel keep`).
    ///   - mayBeOnServer: the message was asked for and not answered: the
    ///     share stays whatever `keep` says.
    /// - Returns: whether the share stayed.
    func cancelled(keep: Bool, mayBeOnServer: Bool) throws(Failure) -> Bool
}

/// The share a keeper holds, as it reads it now.
public enum KeptShare: Hashable, Sendable {
    /// The share, ready to send.
    case readable(OutgoingShare)
    /// Its files are gone or changed: refused as it stands.
    case unusable(DeliveryRefusal)
}

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

/// One delivery: the share's server, how it may be interrupted, and whom
/// to tell where it is.
public struct DeliveryRequest: Sendable {
    /// The server the share goes to (the session of the share's server).
    public var server: DeliveryServer
    /// Ctrl-C while `share send` works; nil for a delivery nobody interrupts.
    public var interruption: DeliveryInterruption?
    /// Whether a cancelled share stays where it is kept (`--on-cancel keep`).
    public var keepsOnCancel: Bool
    /// Each step of the send, for a progress bar and `--verbose`.
    public var progress: (@Sendable (SendProgress) -> Void)?

    /// Makes a value.
    public init(
        server: DeliveryServer, interruption: DeliveryInterruption? = nil, keepsOnCancel: Bool = true,
        progress: (@Sendable (SendProgress) -> Void)? = nil
    ) {
        self.server = server
        self.interruption = interruption
        self.keepsOnCancel = keepsOnCancel
        self.progress = progress
    }
}

/// The one delivery engine: takes a kept share through upload and message
/// creation and decides its outcome, which the keeper carries out.
/// `share send`, `share inbox retry` and share-daemon's outbox all deliver
/// through it.
public protocol ShareDelivering: Sendable {
    /// Delivers the share `keeper` holds; never fails but for the keeper's
    /// own storage: every failure of the send is an outcome.
    /// - Parameters:
    ///   - request: the server, the interruption and the progress.
    ///   - keeper: where the share is kept.
    /// - Returns: what happened and what was kept.
    /// - Throws: the keeper's storage failure (`Keeper.Failure`).
    func deliver<Keeper: DeliveryKeeping>(_ request: DeliveryRequest, keeping keeper: Keeper)
        async throws(Keeper.Failure) -> DeliveryOutcome
}
