public import ShareKitCore
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface

/// Makes ES256 DPoP proofs (RFC 9449 section 4) with one P-256 key.
///
/// The header is fixed for a key, so it is written and encoded once; each
/// proof then costs the payload JSON, two base64url encodings and one
/// signature. Header members come in the order `typ`, `alg`, `jwk`, and the
/// `jwk` members in RFC 7638 order (`crv`, `kty`, `x`, `y`); the payload has
/// `jti`, `htm`, `htu`, `iat`, then `ath` and `nonce` when given. All JSON
/// is compact, without whitespace.
///
/// Usually obtained from ``DeviceKeyStore/proofSigner()``; safe to share
/// between threads.
public struct ES256ProofSigner: DPoPProofSigner {
    /// The public key in every proof's header.
    public let publicJWK: JWK
    /// The key's RFC 7638 thumbprint.
    public let thumbprint: String

    private let key: any P256SigningKey
    private let crypto: any CryptoProvider
    private let clock: @Sendable () -> Int64
    private let jtiGenerator: UUIDv7Generator
    private let urls = CanonicalURLCache()
    /// `ath` of the access token used last: a token serves many requests.
    private let lastAccessTokenHash = LastAccessTokenHash()
    /// `base64url(header) + "."`, the start of every proof.
    private let encodedHeaderAndDot: [UInt8]

    /// The longest HTTP method accepted; real methods are far shorter.
    static let maxMethodLength = 64

    /// Makes a signer for a key.
    /// - Parameters:
    ///   - key: the P-256 private key.
    ///   - crypto: the provider for SHA-256 (`ath`, thumbprint).
    ///   - clock: the current Unix time in seconds, for `iat`.
    ///   - jtiGenerator: the source of `jti` values (UUIDv7).
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)`` when the thumbprint cannot be computed.
    public init(
        key: any P256SigningKey, crypto: any CryptoProvider,
        clock: @escaping @Sendable () -> Int64 = DPoPClock.system,
        jtiGenerator: UUIDv7Generator = .shared
    ) throws(DPoPError) {
        let jwk = try JWK(xCoordinate: key.publicKey.x, yCoordinate: key.publicKey.y)
        self.publicJWK = jwk
        self.thumbprint = try JWKThumbprint.sha256(of: jwk, crypto: crypto)
        self.key = key
        self.crypto = crypto
        self.clock = clock
        self.jtiGenerator = jtiGenerator
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":"# + jwk.canonicalJSON + "}"
        var prefix = [UInt8]()
        Base64URL.encode(Array(header.utf8), appendingTo: &prefix)
        prefix.append(0x2E)
        self.encodedHeaderAndDot = prefix
    }

    /// Makes a proof; see ``ShareKitDPoPInterface/DPoPProofSigner/makeProof(method:url:accessToken:nonce:)``.
    /// - Parameters:
    ///   - method: the HTTP method as sent.
    ///   - url: the request URL.
    ///   - accessToken: the access token for `ath`, if any.
    ///   - nonce: the server's nonce, if any.
    /// - Returns: the compact JWS.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/invalidMethod``,
    ///   ``ShareKitDPoPInterface/DPoPError/invalidURL(_:)`` or ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)``.
    public func makeProof(method: String, url: String, accessToken: String?, nonce: String?) throws(DPoPError)
        -> String
    {
        guard Self.isMethodToken(method) else { throw .invalidMethod }
        let htu = try urls.canonicalJSON(url)
        let ath = try accessToken.map { token throws(DPoPError) in
            try lastAccessTokenHash.of(token, crypto: crypto)
        }

        var payload = JSONWriter(capacity: 192 + (nonce?.utf8.count ?? 0) + htu.count)
        payload.raw(#"{"jti":""#)
        payload.uuid(jtiGenerator.next())
        payload.raw(#"","htm":"#)
        payload.string(method)
        payload.raw(#","htu":"#)
        payload.append(htu)
        payload.raw(#","iat":"#)
        payload.integer(clock())
        if let ath {
            payload.raw(#","ath":""#)
            payload.plain(ath)
            payload.raw(#"""#)
        }
        if let nonce {
            payload.raw(#","nonce":"#)
            payload.string(nonce)
        }
        payload.raw("}")

        // The proof is written straight into the string's storage (header,
        // payload, signature over those two, appended in place): no byte
        // array to copy and validate afterwards.
        let header = encodedHeaderAndDot
        let signedCount = header.count + Base64URL.encodedCount(of: payload.bytes.count)
        let count = signedCount + 1 + Base64URL.encodedCount(of: CryptoLimits.es256SignatureByteCount)
        do {
            return try String(unsafeUninitializedCapacity: count) { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                header.withUnsafeBufferPointer { start in
                    if let start = start.baseAddress { base.update(from: start, count: header.count) }
                }
                _ = payload.bytes.withUnsafeBytes { Base64URL.encode($0, into: base + header.count) }
                let signature = try key.sign(UnsafeRawBufferPointer(start: base, count: signedCount))
                guard signature.count == CryptoLimits.es256SignatureByteCount else {
                    throw DPoPError.signingFailed("the signature has \(signature.count) bytes")
                }
                base[signedCount] = 0x2E
                _ = signature.withUnsafeBytes { Base64URL.encode($0, into: base + signedCount + 1) }
                return count
            }
        } catch let error as DPoPError {
            throw error
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    /// Whether `method` is an HTTP method token (RFC 9110 section 9.1: `tchar`s).
    /// - Parameter method: the candidate.
    /// - Returns: true for a usable method.
    static func isMethodToken(_ method: String) -> Bool {
        let utf8 = method.utf8
        guard !utf8.isEmpty, utf8.count <= maxMethodLength else { return false }
        return utf8.allSatisfy { b in
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            // ! # $ % & ' * + - . ^ _ ` | ~
            case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
            default: return false
            }
        }
    }
}
