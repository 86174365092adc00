public import ShareKitInboxInterface

/// What one takeover pass did.
public struct TakeoverReport: Hashable, Sendable {
    /// Entries now in the outbox (their folders deleted).
    public var takenOver: [String]
    /// Entries another process held (a `share` still at work, another takeover); left for the next pass.
    public var skippedLocked: [String]
    /// Entries the outbox already had: an earlier takeover died between
    /// storing the item and deleting the folder. Their folders are deleted now.
    public var alreadyInOutbox: [String]
    /// Everything in quarantine, with reasons (moved by this pass or earlier).
    public var quarantined: [QuarantinedEntry]
    /// Entries that could not be taken over now (a file system or database
    /// error), with the reason; they stay in the inbox for the next pass.
    public var failed: [Failure]
    /// Entries left in the inbox because their undo window lasts (a share
    /// interrupted with Ctrl-C, `not_before` in its manifest): a pass after
    /// the window takes them.
    public var waiting: [Waiting] = []
    /// Entries whose `not_before` lies further ahead than any undo window
    /// (``ShareKitInboxInterface/InboxManifest/maximumUndoWindowSeconds``): not
    /// written by ShareKit, so not honoured; they were taken over as usual.
    public var windowsNotHonoured: [String] = []

    /// An entry whose undo window lasts, and until when.
    public struct Waiting: Hashable, Sendable {
        /// The entry's id.
        public var id: String
        /// The window's end, milliseconds since 1970.
        public var until: Int64

        /// Makes a value.
        public init(id: String, until: Int64) {
            self.id = id
            self.until = until
        }
    }

    /// When the first undo window of ``waiting`` ends (milliseconds since 1970), nil when none waits.
    public var nextWindowEnd: Int64? { waiting.map(\.until).min() }

    /// An entry that stays in the inbox after this pass, and why.
    public struct Failure: Hashable, Sendable {
        /// The entry's id.
        public var id: String
        /// Why, for a person.
        public var reason: String

        /// Makes a value.
        public init(id: String, reason: String) {
            self.id = id
            self.reason = reason
        }
    }

    /// Makes a report.
    public init(
        takenOver: [String] = [], skippedLocked: [String] = [], alreadyInOutbox: [String] = [],
        quarantined: [QuarantinedEntry] = [], failed: [Failure] = []
    ) {
        self.takenOver = takenOver
        self.skippedLocked = skippedLocked
        self.alreadyInOutbox = alreadyInOutbox
        self.quarantined = quarantined
        self.failed = failed
    }
}
