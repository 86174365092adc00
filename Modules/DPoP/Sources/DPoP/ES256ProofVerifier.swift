import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface

/// Verifies ES256 DPoP proofs for a server (RFC 9449 section 4.3).
///
/// Checks, in this order, each failure with its own ``ShareKitDPoPInterface/DPoPError`` case:
/// size and JWS compact form; header `typ` (`dpop+jwt`), `alg` (`ES256`
/// only), `jwk` (EC P-256, no private members); the signature; the claims
/// `jti`, `htm`, `htu`, `iat` present and well typed; `htm` equal to the
/// request method; `htu` equal to the request URL in canonical form
/// (``HTTPTargetURI``); the nonce when one is required; `iat` within the
/// window; `ath` when an access token came with the request; the key's
/// thumbprint equal to the session's `cnf.jkt`; finally the `jti` recorded as
/// first used (the replay check comes last so that rejected proofs do not
/// fill the replay store).
///
/// The proof is hostile input: its length is bounded, its JSON is parsed
/// with a depth limit and without duplicate members, and no parsed value is
/// ever force-unwrapped. Safe to share between threads.
public struct ES256ProofVerifier: DPoPProofVerifier {
    /// The longest proof accepted, in bytes. A proof with a long nonce is
    /// well under 2 KiB.
    public static let defaultMaxProofLength = 8192
    /// The longest `jti` accepted; a UUID has 36 characters.
    public static let maxJTILength = 256

    /// The widest `iat` window accepted (a year); wider configurations are clamped.
    public static let maxIATWindowSeconds: Int64 = 365 * 24 * 3600

    /// How far `iat` may be from the server's clock, in seconds, either way
    /// (the `dpop.iat_window_seconds` of the server's seed).
    public let iatWindowSeconds: Int64
    /// The longest proof accepted, in bytes.
    public let maxProofLength: Int

    private let crypto: any CryptoProvider
    private let replayStore: any DPoPReplayStore
    private let clock: @Sendable () -> Int64
    private let keys: VerifyingKeyCache

    /// Makes a verifier.
    /// - Parameters:
    ///   - crypto: the provider for signatures and hashes.
    ///   - replayStore: where used `jti` values are recorded.
    ///   - iatWindowSeconds: the accepted distance of `iat` from now, in seconds.
    ///   - maxProofLength: the longest proof accepted, in bytes.
    ///   - keyCacheCapacity: how many imported keys to keep (0 disables the cache).
    ///   - clock: the current Unix time in seconds.
    public init(
        crypto: any CryptoProvider, replayStore: any DPoPReplayStore, iatWindowSeconds: Int64 = 60,
        maxProofLength: Int = defaultMaxProofLength, keyCacheCapacity: Int = 1024,
        clock: @escaping @Sendable () -> Int64 = DPoPClock.system
    ) {
        self.crypto = crypto
        self.replayStore = replayStore
        // Clamped so that `now ± window` can never overflow, whatever the configuration says.
        self.iatWindowSeconds = min(max(0, iatWindowSeconds), Self.maxIATWindowSeconds)
        self.maxProofLength = maxProofLength
        self.keys = VerifyingKeyCache(capacity: max(0, keyCacheCapacity))
        self.clock = clock
    }

    /// Verifies one proof; see ``ShareKitDPoPInterface/DPoPProofVerifier/verify(_:)``.
    /// - Parameter input: the proof and the request.
    /// - Returns: the verified proof.
    /// - Throws: the ``ShareKitDPoPInterface/DPoPError`` case of the first failed check.
    public func verify(_ input: DPoPVerificationInput) throws(DPoPError) -> DPoPVerifiedProof {
        // Check the length before copying: the header value may be huge.
        guard !input.proof.utf8.isEmpty, input.proof.utf8.count <= maxProofLength else {
            throw .malformedProof("the proof must be 1 to \(maxProofLength) bytes long")
        }
        let proof = Array(input.proof.utf8)
        let dots = proof.indices.filter { proof[$0] == 0x2E }
        guard dots.count == 2 else { throw .malformedProof("not a JWS in compact form (three parts)") }
        let headerPart = proof[..<dots[0]]
        let payloadPart = proof[(dots[0] + 1)..<dots[1]]
        let signaturePart = proof[(dots[1] + 1)...]

        // Header
        guard let headerBytes = Base64URL.decode(headerPart) else {
            throw .malformedProof("the header is not base64url")
        }
        guard let header = JSONValue(strictJSON: headerBytes)?.objectValue else {
            throw .malformedProof("the header is not a JSON object")
        }
        guard let typ = header["typ"]?.stringValue, Self.isDPoPType(typ) else { throw .wrongType }
        guard header["alg"]?.stringValue == "ES256" else { throw .unsupportedAlgorithm }
        guard header["crit"] == nil else { throw .malformedProof("critical header extensions are not supported") }
        let jwk = try Self.publicJWK(header["jwk"])

        // Signature, before any claim is believed.
        guard let signature = Base64URL.decode(signaturePart) else {
            throw .malformedProof("the signature is not base64url")
        }
        let key = try keys.entry(for: jwk, crypto: crypto)
        let signed = proof.withUnsafeBytes { all in
            key.key.isValidSignature(signature, for: UnsafeRawBufferPointer(rebasing: all[..<dots[1]]))
        }
        guard signed else { throw .invalidSignature }

        // Claims
        guard let payloadBytes = Base64URL.decode(payloadPart) else {
            throw .malformedProof("the payload is not base64url")
        }
        guard let claims = JSONValue(strictJSON: payloadBytes)?.objectValue else {
            throw .malformedProof("the payload is not a JSON object")
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= Self.maxJTILength else {
            throw .malformedProof("jti must be a string of 1 to \(Self.maxJTILength) bytes")
        }
        guard let htm = claims["htm"]?.stringValue else { throw .malformedProof("htm must be a string") }
        guard let htu = claims["htu"]?.stringValue else { throw .malformedProof("htu must be a string") }
        guard let iatValue = claims["iat"]?.numberValue else { throw .malformedProof("iat must be a number") }
        let nonce = try Self.optionalString(claims, "nonce")
        let ath = try Self.optionalString(claims, "ath")

        guard htm == input.method else { throw .methodMismatch }
        guard let claimed = try? HTTPTargetURI(htu), let actual = try? HTTPTargetURI(input.url), claimed == actual
        else { throw .urlMismatch }

        if let requirement = input.nonce {
            guard let nonce else { throw .missingNonce(newNonce: requirement.nonceToSend) }
            guard requirement.acceptedNonces.contains(nonce) else {
                throw .nonceMismatch(newNonce: requirement.nonceToSend)
            }
        }

        let now = clock()
        // Compare in floating point: iat is attacker-chosen and may be far
        // outside the range of Int64, and no sum here may overflow.
        let iatFloor = iatValue.rounded(.down)
        let window = Double(iatWindowSeconds)
        guard iatFloor >= Double(now) - window, iatFloor <= Double(now) + window,
            let issuedAt = Int64(exactly: iatFloor)
        else { throw .issuedAtOutsideWindow }

        if let accessToken = input.accessToken {
            guard let ath else { throw .missingAccessTokenHash }
            guard ath == (try AccessTokenHash.of(accessToken, crypto: crypto)) else { throw .accessTokenHashMismatch }
        }

        if let bound = input.boundThumbprint, bound != key.thumbprint { throw .keyNotBound }

        // A proof stays acceptable until iat + window; remember its jti until then.
        let firstUse: Bool
        do {
            firstUse = try replayStore.recordFirstUse(
                of: key.thumbprint + ":" + jti, now: now, expiresAt: Self.saturatingSum(issuedAt, iatWindowSeconds, 1))
        } catch let error as DPoPError {
            throw error
        } catch {
            throw .storeFailure("\(error)")
        }
        guard firstUse else { throw .replayed }

        return DPoPVerifiedProof(
            jwk: jwk, thumbprint: key.thumbprint, jti: jti, method: htm, url: claimed.canonical, issuedAt: issuedAt,
            nonce: nonce, accessTokenHash: ath)
    }

    /// `a + b + c`, or `Int64.max` when that does not fit.
    static func saturatingSum(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64 {
        let (ab, overflow1) = a.addingReportingOverflow(b)
        let (abc, overflow2) = ab.addingReportingOverflow(c)
        return overflow1 || overflow2 ? .max : abc
    }

    /// Whether a `typ` names the DPoP media type. Media types are
    /// case-insensitive, and RFC 7515 section 4.1.9 lets `application/` be omitted.
    static func isDPoPType(_ typ: String) -> Bool {
        let lower = typ.lowercased()
        return lower == "dpop+jwt" || lower == "application/dpop+jwt"
    }

    /// The members a JWK may only have when it holds private material
    /// (RFC 7518 section 6: `d` for EC and RSA, the RSA CRT members, `k` for symmetric keys).
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    private static func publicJWK(_ value: JSONValue?) throws(DPoPError) -> JWK {
        guard let members = value?.objectValue else { throw .invalidKey("the header has no jwk object") }
        guard members.keys.allSatisfy({ !privateMembers.contains($0) }) else { throw .privateKeyInJWK }
        guard members["kty"]?.stringValue == JWK.keyType else { throw .invalidKey("kty must be EC") }
        guard members["crv"]?.stringValue == JWK.curve else { throw .invalidKey("crv must be P-256") }
        guard let x = members["x"]?.stringValue, let y = members["y"]?.stringValue else {
            throw .invalidKey("x and y must be strings")
        }
        return try JWK(x: x, y: y)
    }

    private static func optionalString(_ claims: [String: JSONValue], _ name: String) throws(DPoPError) -> String? {
        guard let value = claims[name] else { return nil }
        guard let text = value.stringValue else { throw .malformedProof("\(name) must be a string") }
        return text
    }
}
