public import ShareKitCore

/// Why a send failed for now; sending the same share again later may work.
public enum RetryReason: Hashable, Sendable, CustomStringConvertible, LocalizedDescription {
    /// The server could not be reached (no network, unknown host, connection refused or lost).
    case noNetwork(String)
    /// A request took too long.
    case timeout(String)
    /// The server failed (`5xx`, `408`), and how long it asked to wait
    /// (`Retry-After`, seconds, at most an hour) when it said.
    case serverError(status: Int, code: String, retryAfterSeconds: Int? = nil)
    /// `429`: the server asks to wait, `Retry-After` seconds when it said.
    case rateLimited(retryAfterSeconds: Int?)
    /// No usable session (signed out, revoked, refresh impossible now).
    case sessionUnavailable(String)
    /// An upload ran out of its time budget and can be resumed elsewhere.
    case handedOff(uploadID: String?)
    /// An upload failed for a passing reason.
    case uploadInterrupted(String)

    /// How long the server asked to wait before the next attempt, in
    /// seconds, when it said (`429` or `5xx` with `Retry-After`).
    public var retryAfterSeconds: Int? {
        switch self {
        case .rateLimited(let seconds), .serverError(_, _, let seconds): return seconds
        default: return nil
        }
    }

    /// The server's wait in words; a wait at the cap says so, because the
    /// server may have asked for more (a hostile or broken `Retry-After`).
    private static func wait(_ seconds: Int, in language: Language) -> String {
        MessagesText.table.text(seconds >= 3600 ? .waitCapped : .wait, ["seconds": seconds], in: language)
    }

    /// A message for a person, in English: the reason kept in a manifest
    /// and the outbox, shown by `share inbox list`; a terminal shows
    /// ``localizedText``. The transport's words are in ``detail``.
    public var description: String { localizedText.english }

    /// The transport's or the session's own words (the operation, libcurl's
    /// or OpenSSL's message), for `--verbose` and the log; nil when the
    /// person's words say everything.
    public var detail: String? {
        switch self {
        case .noNetwork(let why), .timeout(let why), .sessionUnavailable(let why), .uploadInterrupted(let why):
            return why
        case .serverError, .rateLimited, .handedOff: return nil
        }
    }

    /// ``description`` with ``detail``: the line for `--verbose` and the log.
    public var logDescription: String {
        detail.map { "\(description) (\($0))" } ?? description
    }

    /// A reason kept in English (``description``, in a manifest or the
    /// outbox) in every language: a text this package's table wrote is
    /// written again in the person's language; any other text is shown as
    /// it is.
    /// - Parameter english: the kept reason.
    public static func localizedKept(_ english: String) -> LocalizedText {
        let table = MessagesText.table
        for key in MessagesText.retryReasons + MessagesText.rejections {
            if let values = table.values(of: key, in: english) { return table.localized(key, values) }
        }
        return LocalizedText(verbatim: english)
    }

    /// The message in every language (the table ``MessagesText``): what
    /// happened in a person's words, without the transport's (``detail``).
    public var localizedText: LocalizedText {
        let table = MessagesText.table
        switch self {
        case .noNetwork: return table.localized(.noNetwork)
        case .timeout: return table.localized(.timeout)
        case .serverError(let status, let code, let seconds?):
            return LocalizedText { language in
                table.text(
                    .serverErrorWait, ["status": status, "code": code, "wait": Self.wait(seconds, in: language)],
                    in: language)
            }
        case .serverError(let status, let code, nil):
            return table.localized(.serverError, ["status": status, "code": code])
        case .rateLimited(let seconds?):
            return LocalizedText { language in
                table.text(.rateLimitedWait, ["wait": Self.wait(seconds, in: language)], in: language)
            }
        case .rateLimited(nil): return table.localized(.rateLimited)
        case .sessionUnavailable: return table.localized(.sessionUnavailable)
        case .handedOff(let id?): return table.localized(.handedOffUpload, ["upload": id])
        case .handedOff(nil): return table.localized(.handedOff)
        case .uploadInterrupted: return table.localized(.uploadInterrupted)
        }
    }
}

/// The words of a refusal of a share, English and every language: the
/// server's refusals (by status and problem code, with the server's own
/// words) and the refusals the client writes before or while sending.
extension MessagesText {
    /// The message of a refusal by the server, in English: what it means
    /// for the share (by the status and the problem code), then the
    /// server's own words. What a refusal of the share carries
    /// (``DeliveryRefusal`` in DeliveryInterface) and a manifest keeps.
    /// - Parameters:
    ///   - status: the answer's status.
    ///   - code: the problem code.
    ///   - detail: the server's words.
    /// - Returns: the message.
    public static func refusalMessage(status: Int, code: String, detail: String) -> String {
        let (key, arguments) = refusalKey(status: status, code: code)
        var values = arguments
        values["detail"] = .text(detail)
        return table.text(key, values, in: .english)
    }

    /// The message of a refusal of the share in every language: a
    /// message this package's table wrote in English (``refusalMessage(status:code:detail:)``
    /// and the other refusals of ``MessagesText``) is written again in the
    /// person's language, the server's words inside as they are; any other
    /// message is shown as it is.
    /// - Parameters:
    ///   - code: the problem code.
    ///   - message: the message as the error carries it.
    /// - Returns: the message in every language.
    public static func localizedRejection(code: String, message: String) -> LocalizedText {
        for key in rejections {
            if let values = table.values(of: key, in: message) { return table.localized(key, values) }
        }
        return LocalizedText(verbatim: message)
    }

    /// The text of a refusal by status and code.
    private static func refusalKey(status: Int, code: String) -> (MessagesText, [String: PlaceholderValue]) {
        switch (status, code) {
        case (403, "write_forbidden"): return (.refusedWriteForbidden, [:])
        case (403, _): return (.refusedForbidden, [:])
        case (404, _): return (.refusedNotFound, [:])
        case (413, _): return (.refusedTooLarge, [:])
        case (415, _): return (.refusedType, [:])
        case (422, "client_msg_id_conflict"): return (.refusedConflict, [:])
        case (422, "too_many_attachments"): return (.refusedTooManyAttachments, [:])
        case (422, "not_a_forum"): return (.refusedNotAForum, [:])
        case (422, "empty_message"): return (.refusedEmpty, [:])
        case (422, "invalid_attachment"): return (.refusedInvalidAttachment, [:])
        default: return (.refusedStatus, ["status": .number(Int64(status))])
        }
    }
}
