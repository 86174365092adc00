/// What a client does after a response, as decided by ``DPoPNonceHandling``.
public enum DPoPNonceDecision: Hashable, Sendable {
    /// The response is not a nonce challenge: handle it as usual.
    case proceed
    /// The server asked for a nonce (`use_dpop_nonce`) and sent a new one:
    /// repeat the request once, with a fresh proof that carries `nonce`.
    case retry(nonce: String)
    /// The server asked for a nonce, but repeating would not help: this was
    /// already the repetition, or the server sent no new nonce. Report the
    /// response as a failure.
    case challengeUnresolved
}
