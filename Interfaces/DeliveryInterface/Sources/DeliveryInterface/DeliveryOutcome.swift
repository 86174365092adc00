public import ShareKitMessagesInterface

/// Where a share that was not sent is kept.
public enum DeliveryPlace: String, Hashable, Sendable {
    /// The share inbox entry `share send` wrote; share-daemon takes it over.
    case inboxEntry = "inbox_entry"
    /// The daemon's outbox: a later pass sends it again, or a refused item
    /// stays there (failed) so that a person sees it.
    case outbox
    /// The quarantine of the share inbox: the entry could not be used as it
    /// was kept (its files gone or changed).
    case quarantine
}

/// The stage of a delivery where a share was refused.
public enum DeliveryStage: String, Hashable, Sendable {
    /// The share as it was kept: its files are gone or no longer what was written.
    case keptShare = "kept_share"
    /// Before any byte went out (the server's limits) or while a file was uploaded.
    case upload
    /// Creating the message (or the new post) with the uploaded files.
    case message
}

/// A share refused for good: by the server, by the limits checked before
/// anything is sent, or because it cannot be read as it was kept. The
/// context the delivery adds to the API client's classification (the
/// stage, where the share is kept), never a classification of its own,
/// and a part of the outcome rather than an error anyone throws.
public struct DeliveryRefusal: Hashable, Sendable {
    /// Where the delivery was when the share was refused.
    public var stage: DeliveryStage
    /// The problem code (`write_forbidden`, `file_too_large`,
    /// `outbox_file_missing`, ...): what `--json` and the outbox keep.
    public var code: String
    /// The reason, in English, as the API client classified it or the
    /// keeper described it (a manifest and the outbox keep it in English;
    /// a terminal writes it again in the person's language).
    public var message: String
    /// Where the refused share is kept; nil when it was removed.
    public var keptIn: DeliveryPlace?

    /// Makes a value.
    public init(stage: DeliveryStage, code: String, message: String, keptIn: DeliveryPlace? = nil) {
        self.stage = stage
        self.code = code
        self.message = message
        self.keptIn = keptIn
    }
}

/// What became of one attempt to deliver a share: the one outcome type
/// `share send`, `share inbox retry` and share-daemon each render in one
/// place.
public enum DeliveryOutcome: Hashable, Sendable {
    /// Delivered, or answered as a replay of an earlier delivery: the kept
    /// share is gone (the outbox marks it sent).
    case sent(SentMessage)
    /// Not sent for now, for the reason the API client gave: the share is
    /// kept in `place` for a later attempt, due at `nextAttemptAt`
    /// (milliseconds since 1970) when the keeper set a time.
    case kept(RetryReason, in: DeliveryPlace, nextAttemptAt: Int64?)
    /// Refused for good: the stage, the code and the reason, and where the
    /// share is kept (if anywhere).
    case refused(DeliveryRefusal)
    /// Interrupted (Ctrl-C, a stopping daemon); `kept` says whether the
    /// share stayed. `mayBeOnServer`: the message had been asked for and no
    /// answer said what the server holds, so the share is kept whatever
    /// the person asked, for share-daemon to finish through the
    /// `client_msg_id`.
    case cancelled(kept: Bool, mayBeOnServer: Bool)
}
