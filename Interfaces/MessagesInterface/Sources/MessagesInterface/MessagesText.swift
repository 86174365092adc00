public import ShareKitCore

/// The texts of ``RetryReason`` and of a share's refusals, English and German (see
/// `StringTable` for how to add one). `{detail}` is the server's words,
/// shown as they are. A passing failure is said in a person's words; the
/// transport's own words (libcurl's, OpenSSL's, the operation's name) are
/// ``RetryReason/detail``, for `--verbose` and the log.
public enum MessagesText: String, StringTableKey {
    case noNetwork = "retry.no_network"
    case timeout = "retry.timeout"
    case serverErrorWait = "retry.server_error_wait"
    case serverError = "retry.server_error"
    case rateLimitedWait = "retry.rate_limited_wait"
    case rateLimited = "retry.rate_limited"
    case sessionUnavailable = "retry.session_unavailable"
    case handedOffUpload = "retry.handed_off_upload"
    case handedOff = "retry.handed_off"
    case uploadInterrupted = "retry.upload_interrupted"
    case wait = "retry.wait"
    case waitCapped = "retry.wait_capped"
    case notSentYet = "send.not_sent_yet"
    case notSent = "send.not_sent"
    case cancelled = "send.cancelled"
    case refusedWriteForbidden = "refused.write_forbidden"
    case refusedForbidden = "refused.forbidden"
    case refusedNotFound = "refused.not_found"
    case refusedTooLarge = "refused.too_large"
    case refusedType = "refused.type"
    case refusedConflict = "refused.client_msg_id_conflict"
    case refusedTooManyAttachments = "refused.too_many_attachments"
    case refusedNotAForum = "refused.not_a_forum"
    case refusedEmpty = "refused.empty_message"
    case refusedInvalidAttachment = "refused.invalid_attachment"
    case refusedStatus = "refused.status"
    case uploadRefused = "refused.upload"
    case fileChanged = "refused.file_changed"
    case requestFailed = "refused.request_failed"
    case limitsOutOfRange = "refused.limits_out_of_range"

    /// The texts a refusal's message is written from, tried in
    /// this order to recognise one (the most particular first).
    static let rejections: [MessagesText] = [
        .refusedWriteForbidden, .refusedForbidden, .refusedNotFound, .refusedTooLarge, .refusedType,
        .refusedConflict, .refusedTooManyAttachments, .refusedNotAForum, .refusedEmpty, .refusedInvalidAttachment,
        .refusedStatus, .fileChanged, .uploadRefused, .requestFailed, .limitsOutOfRange,
    ]

    /// The texts a ``RetryReason`` is written from, tried in this order to
    /// recognise one kept in English (a manifest's or the outbox's last error).
    static let retryReasons: [MessagesText] = [
        .noNetwork, .timeout, .serverErrorWait, .serverError, .rateLimitedWait, .rateLimited, .sessionUnavailable,
        .handedOffUpload, .handedOff, .uploadInterrupted,
    ]

    /// The table.
    public static let table = StringTable<MessagesText>(
        english: [
            .noNetwork: "the server could not be reached",
            .timeout: "the server took too long to answer",
            .serverErrorWait: "the server had a problem ({status} {code}); {wait}",
            .serverError: "the server had a problem ({status} {code})",
            .rateLimitedWait: "the server is busy; {wait}",
            .rateLimited: "the server is busy",
            .sessionUnavailable: "no session could be used right now (share login signs in again if this lasts)",
            .handedOffUpload: "the upload took too long here and will continue later (upload {upload})",
            .handedOff: "the upload took too long here and will continue later",
            .uploadInterrupted: "an upload did not get through now (no connection, or the server failed or was busy)",
            .wait: "it asked to wait {seconds} seconds",
            .waitCapped: "it asked to wait {seconds} seconds or more (waits are capped at an hour)",
            .notSentYet: "Not sent yet: {reason}. It will be sent again later.",
            .notSent: "Not sent: {message}",
            .cancelled: "Sending was cancelled.",
            .refusedWriteForbidden: "you can no longer write here. {detail}",
            .refusedForbidden: "you are not allowed to do this. {detail}",
            .refusedNotFound: "the conversation no longer exists or you cannot see it. {detail}",
            .refusedTooLarge: "it is too large. {detail}",
            .refusedType: "this kind of file is not accepted. {detail}",
            .refusedConflict: "a different message was already sent with the same id. {detail}",
            .refusedTooManyAttachments: "it has too many attachments. {detail}",
            .refusedNotAForum: "new posts can only be created in forum channels. {detail}",
            .refusedEmpty: "the message is empty. {detail}",
            .refusedInvalidAttachment: "an attachment is not usable. {detail}",
            .refusedStatus: "the server refused it ({status}). {detail}",
            .uploadRefused: "{file} could not be uploaded: {reason}",
            .fileChanged: "{file} changed while it was being sent: {reason}",
            .requestFailed: "the request could not be made: {reason}",
            .limitsOutOfRange: "the server's limits are out of range",
        ],
        german: [
            .noNetwork: "der Server war nicht erreichbar",
            .timeout: "der Server hat zu lange nicht geantwortet",
            .serverErrorWait: "der Server hatte ein Problem ({status} {code}); {wait}",
            .serverError: "der Server hatte ein Problem ({status} {code})",
            .rateLimitedWait: "der Server ist ausgelastet; {wait}",
            .rateLimited: "der Server ist ausgelastet",
            .sessionUnavailable:
                "gerade war keine Sitzung verwendbar (share login meldet dich neu an, wenn das so bleibt)",
            .handedOffUpload: "der Upload hat hier zu lange gedauert und wird später fortgesetzt (Upload {upload})",
            .handedOff: "der Upload hat hier zu lange gedauert und wird später fortgesetzt",
            .uploadInterrupted:
                "ein Upload kam gerade nicht durch (keine Verbindung, oder der Server hatte ein Problem oder war ausgelastet)",
            .wait: "er bat, {seconds} Sekunden zu warten",
            .waitCapped: "er bat, {seconds} Sekunden oder länger zu warten (Wartezeiten sind auf eine Stunde begrenzt)",
            .notSentYet: "Noch nicht gesendet: {reason}. Es wird später erneut gesendet.",
            .notSent: "Nicht gesendet: {message}",
            .cancelled: "Das Senden wurde abgebrochen.",
            .refusedWriteForbidden: "du kannst hier nicht mehr schreiben. {detail}",
            .refusedForbidden: "das darfst du nicht. {detail}",
            .refusedNotFound: "die Unterhaltung gibt es nicht mehr, oder du kannst sie nicht sehen. {detail}",
            .refusedTooLarge: "es ist zu groß. {detail}",
            .refusedType: "diese Art von Datei wird nicht angenommen. {detail}",
            .refusedConflict: "mit derselben ID wurde schon eine andere Nachricht gesendet. {detail}",
            .refusedTooManyAttachments: "es hat zu viele Anhänge. {detail}",
            .refusedNotAForum: "neue Beiträge gibt es nur in Forum-Kanälen. {detail}",
            .refusedEmpty: "die Nachricht ist leer. {detail}",
            .refusedInvalidAttachment: "ein Anhang ist nicht verwendbar. {detail}",
            .refusedStatus: "der Server hat es abgelehnt ({status}). {detail}",
            .uploadRefused: "{file} konnte nicht hochgeladen werden: {reason}",
            .fileChanged: "{file} hat sich beim Senden geändert: {reason}",
            .requestFailed: "die Anfrage konnte nicht gestellt werden: {reason}",
            .limitsOutOfRange: "die Limits des Servers liegen außerhalb des gültigen Bereichs",
        ])
}
