public import ShareKitMessagesInterface

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
