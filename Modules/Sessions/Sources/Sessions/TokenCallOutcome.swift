import ShareKitSessionsInterface

/// What a token endpoint answered, once transport failures are thrown.
enum TokenCallOutcome {
    /// A new session or pair (`200`/`201` with a token response).
    case issued(SessionTokens)
    /// Any other response: its status and problem `code` (or OAuth `error`).
    case refused(status: Int, code: String?)
}
