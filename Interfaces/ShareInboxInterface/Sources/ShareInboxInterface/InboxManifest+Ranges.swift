public import ShareKitCore

/// The ranges of a manifest's numbers. Every program of the group and any
/// process of the user can write the inbox, and an entry lives on across
/// versions, so a number is checked where the manifest is read: an entry
/// whose number is outside its range is quarantined with the field's name,
/// and no arithmetic on an entry that passed can overflow (the sum of every
/// attachment's size fits many times over in `Int64`).
extension InboxManifest {
    /// `attempts`: the attempts of `share send` (and `share inbox retry`).
    /// A million is years of retries; counting stops there (``countingAttempt()``).
    public static let attemptsRange = 0...1_000_000
    /// The most attachments of one entry (a server takes far fewer).
    public static let maximumAttachments = 1000
    /// `created_at` in Unix milliseconds: 1970-01-01 up to the end of 9999
    /// (a `client_msg_id` is a UUIDv7, whose time starts in 1970).
    public static let createdAtRange: ClosedRange<Int64> = 0...253_402_300_799_999
    /// The longest id, file name, content type, upload id or origin kept
    /// (UTF-8 bytes); a manifest holds the person's comment, not long names.
    public static let maximumNameBytes = 4096

    /// The manifest after one more attempt: `attempts` plus one, staying at
    /// the top of ``attemptsRange`` instead of overflowing.
    public func countingAttempt() -> InboxManifest {
        var next = self
        next.attempts = Self.attempts(after: attempts)
        return next
    }

    /// `attempts` plus one, kept inside ``attemptsRange``: the one counting
    /// rule of the share inbox and of the outbox its items move into.
    /// - Parameter attempts: the count so far, in range or not.
    /// - Returns: the next count, at most the range's top.
    public static func attempts(after attempts: Int) -> Int {
        min(max(attempts, attemptsRange.lowerBound), attemptsRange.upperBound - 1) + 1
    }

    /// Why an attempts count is unusable, naming the field and the range;
    /// nil inside ``attemptsRange``.
    /// - Parameter attempts: the count as read.
    public static func attemptsProblem(_ attempts: Int) -> String? {
        guard !attemptsRange.contains(attempts) else { return nil }
        return "the field 'attempts' is \(attempts), outside \(attemptsRange.lowerBound) to \(attemptsRange.upperBound)"
    }

    /// The first field outside its range, in words that name the field by
    /// its JSON path and the range (never the value's text: a comment is the
    /// person's); nil when every field is in range.
    public var rangeProblem: String? {
        if let problem = Self.attemptsProblem(attempts) { return problem }
        guard let created = RFC3339.unixMilliseconds(createdAt) else {
            return "the field 'created_at' is not an RFC 3339 time"
        }
        if !Self.createdAtRange.contains(created) {
            return "the field 'created_at' is outside 1970-01-01 to 9999-12-31"
        }
        if attachments.count > Self.maximumAttachments {
            return "the field 'attachments' has \(attachments.count) files, more than \(Self.maximumAttachments)"
        }
        let names: [(String, String?)] = [
            ("client_msg_id", clientMsgID), ("server_origin", serverOrigin), ("target.id", target.id),
        ]
        for (field, value) in names {
            if let problem = Self.nameProblem(field, value) { return problem }
        }
        for (index, attachment) in attachments.enumerated() {
            let field = "attachments.\(index)"
            if let problem = InboxAttachment.sizeProblem(attachment.size, field: field + ".size") { return problem }
            let names: [(String, String?)] = [
                ("file", attachment.file), ("file_name", attachment.fileName), ("content_type", attachment.contentType),
                ("completed_upload_id", attachment.completedUploadID),
            ]
            for (name, value) in names {
                if let problem = Self.nameProblem(field + "." + name, value) { return problem }
            }
        }
        return nil
    }

    /// Why a name-like field is unusable: longer than ``maximumNameBytes``.
    private static func nameProblem(_ field: String, _ value: String?) -> String? {
        guard let value, value.utf8.count > maximumNameBytes else { return nil }
        return "the field '\(field)' is longer than \(maximumNameBytes) bytes"
    }
}

extension InboxAttachment {
    /// `size` in bytes: none negative, none above 1 PiB (2^50), the largest
    /// `file_max_upload_bytes` a server may set.
    public static let sizeRange: ClosedRange<Int64> = 0...(1 << 50)

    /// Why a size is unusable, naming the field and the range; nil inside
    /// ``sizeRange``.
    /// - Parameters:
    ///   - size: the size as read.
    ///   - field: the field's path, as a reason names it (`attachments.0.size`).
    public static func sizeProblem(_ size: Int64, field: String) -> String? {
        guard !sizeRange.contains(size) else { return nil }
        return "the field '\(field)' is \(size), outside \(sizeRange.lowerBound) to \(sizeRange.upperBound)"
    }
}
