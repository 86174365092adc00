import ShareKitInboxInterface

/// The ranges of an outbox record's numbers. The outbox lives on across
/// versions and its items come from the share inbox, so a record that an
/// older version stored with a number no ShareKit writes now (`attempts` of
/// 2^63 - 1 from a hand-written manifest) must not trap the daemon on every
/// start: an outbox reads each record against these ranges and refuses one
/// outside them (state failed, code ``invalidRecordCode``, the field named
/// in its reason) instead of sending it.
extension OutboxItem {
    /// `attempts`: the share inbox's range (the CLI's attempts come along);
    /// counting stops at its top.
    public static let attemptsRange: ClosedRange<Int> = InboxManifest.attemptsRange
    /// Every time of a record (`next_attempt_at`, `created_at`,
    /// `updated_at`), in Unix milliseconds: 1970 up to the end of 9999, so
    /// the difference of any two fits in `Int64`.
    public static let timeRange: ClosedRange<Int64> = InboxManifest.createdAtRange
    /// The most attachments of one item (the share inbox's).
    public static let maximumAttachments = InboxManifest.maximumAttachments
    /// The failure code of a record refused for a field out of its range.
    public static let invalidRecordCode = "invalid_record"

    /// The item after one more attempt: `attempts` plus one, staying at the
    /// top of ``attemptsRange`` instead of overflowing.
    public func countingAttempt() -> OutboxItem {
        var next = self
        next.attempts = InboxManifest.attempts(after: attempts)
        return next
    }

    /// The first number outside its range, in words that name the field
    /// and the range; nil when every number is in range.
    public var rangeProblem: String? {
        if let problem = InboxManifest.attemptsProblem(attempts) { return problem }
        for (field, value) in [
            ("next_attempt_at", nextAttemptAt), ("created_at", createdAt), ("updated_at", updatedAt),
        ]
        where !Self.timeRange.contains(value) {
            return "the field '\(field)' is \(value), outside 1970-01-01 to 9999-12-31 in milliseconds"
        }
        if attachments.count > Self.maximumAttachments {
            return "the field 'attachments' has \(attachments.count) files, more than \(Self.maximumAttachments)"
        }
        for (index, attachment) in attachments.enumerated() {
            if let problem = InboxAttachment.sizeProblem(attachment.size, field: "attachments.\(index).size") {
                return problem
            }
        }
        return nil
    }
}
