/// Everything that can go wrong with DPoP, for clients and servers.
///
/// A server turns each rejection into its answer with ``oauthErrorCode``
/// (`invalid_dpop_proof`, or `use_dpop_nonce` with ``nonceToSend`` in a
/// `DPoP-Nonce` header). Messages never repeat the proof, a token, a key or
/// any other value taken from the request: they are for logs, and request
/// values are attacker-controlled.
public enum DPoPError: Error, Hashable, Sendable, CustomStringConvertible {
    // MARK: Rejections of a proof (verification)

    /// The proof is not a well-formed DPoP JWT: size, JWS compact form,
    /// base64url, JSON, or a required claim missing or of the wrong type.
    case malformedProof(String)
    /// The signature does not verify with the key in the header.
    case invalidSignature
    /// The header's `typ` is not `dpop+jwt`.
    case wrongType
    /// The header's `alg` is not `ES256`, the only algorithm accepted.
    case unsupportedAlgorithm
    /// The header's `jwk` is not an EC P-256 public key with valid coordinates.
    case invalidKey(String)
    /// The header's `jwk` carries private key material (`d` or other private members).
    case privateKeyInJWK
    /// `htm` is not the request's method.
    case methodMismatch
    /// `htu` does not name the request's URL (compared in canonical form).
    case urlMismatch
    /// `iat` is further from the server's clock than the accepted window.
    case issuedAtOutsideWindow
    /// The `jti` was already used within the window.
    case replayed
    /// An access token came with the request but the proof has no `ath`.
    case missingAccessTokenHash
    /// `ath` is not the hash of the access token that came with the request.
    case accessTokenHashMismatch
    /// The server requires a nonce and the proof has none; send `newNonce`.
    case missingNonce(newNonce: String)
    /// The proof's nonce is not one the server accepts now; send `newNonce`.
    case nonceMismatch(newNonce: String)
    /// The key is not the one the session is bound to (`cnf.jkt`).
    case keyNotBound

    // MARK: Client-side failures

    /// The URL cannot be used as an `htu`; the text says why.
    case invalidURL(String)
    /// The HTTP method is not a valid method token.
    case invalidMethod
    /// The signature could not be made; the text names the cryptographic failure.
    case signingFailed(String)
    /// The device key item exists but does not hold a P-256 key; the text
    /// names the item (never its value). Delete the item to make a new key,
    /// which signs the person out of every server the old key was bound to.
    case deviceKeyCorrupt(String)
    /// A store (secret store, shared state, replay store) failed; the text
    /// is the store's own message, which never holds secret values.
    case storeFailure(String)

    /// The OAuth error code a server answers with (RFC 9449 sections 7.1 and 9):
    /// `use_dpop_nonce` for nonce rejections, `invalid_dpop_proof` for the
    /// other rejections, nil for client-side failures.
    public var oauthErrorCode: String? {
        switch self {
        case .missingNonce, .nonceMismatch:
            return "use_dpop_nonce"
        case .malformedProof, .invalidSignature, .wrongType, .unsupportedAlgorithm, .invalidKey, .privateKeyInJWK,
            .methodMismatch, .urlMismatch, .issuedAtOutsideWindow, .replayed, .missingAccessTokenHash,
            .accessTokenHashMismatch, .keyNotBound:
            return "invalid_dpop_proof"
        case .invalidURL, .invalidMethod, .signingFailed, .deviceKeyCorrupt, .storeFailure:
            return nil
        }
    }

    /// The nonce a server sends in `DPoP-Nonce` with a nonce rejection.
    public var nonceToSend: String? {
        switch self {
        case .missingNonce(let nonce), .nonceMismatch(let nonce): return nonce
        default: return nil
        }
    }

    /// A message for a person and for logs: what was refused and why,
    /// without any value taken from the request.
    public var description: String {
        switch self {
        case .malformedProof(let why): return "DPoP proof is malformed: \(why)"
        case .invalidSignature: return "DPoP proof signature does not verify with its jwk"
        case .wrongType: return "DPoP proof header typ must be dpop+jwt"
        case .unsupportedAlgorithm: return "DPoP proof header alg must be ES256"
        case .invalidKey(let why): return "DPoP proof jwk is not a P-256 public key: \(why)"
        case .privateKeyInJWK: return "DPoP proof jwk contains private key material"
        case .methodMismatch: return "DPoP proof htm does not match the request method"
        case .urlMismatch: return "DPoP proof htu does not match the request URL"
        case .issuedAtOutsideWindow: return "DPoP proof iat is outside the accepted time window; check the clock"
        case .replayed: return "DPoP proof jti was already used"
        case .missingAccessTokenHash: return "DPoP proof has no ath although an access token was sent"
        case .accessTokenHashMismatch: return "DPoP proof ath does not match the access token"
        case .missingNonce: return "DPoP proof has no nonce; the server requires one (see DPoP-Nonce)"
        case .nonceMismatch: return "DPoP proof nonce is not current; retry with the nonce in DPoP-Nonce"
        case .keyNotBound: return "DPoP proof key is not the key this session is bound to"
        case .invalidURL(let why): return "URL cannot be used for a DPoP proof: \(why)"
        case .invalidMethod: return "HTTP method is not a valid token for a DPoP proof"
        case .signingFailed(let why): return "DPoP proof could not be signed: \(why)"
        case .deviceKeyCorrupt(let item):
            return "device key \(item) is not a P-256 key; delete it to create a new one (sessions bound to it end)"
        case .storeFailure(let why): return "DPoP state store failed: \(why)"
        }
    }
}
