import ShareKitCore
public import ShareKitDPoPInterface

/// The client's nonce logic over a ``ShareKitDPoPInterface/DPoPNonceCache``; see
/// ``ShareKitDPoPInterface/DPoPNonceHandling`` for the rules.
///
/// Construct it with the cache the programs share, usually
/// ``SharedStateNonceCache``: `DPoPNonceHandler(cache: SharedStateNonceCache(state: container.state))`.
public struct DPoPNonceHandler: DPoPNonceHandling {
    /// The longest nonce stored; longer values are ignored.
    public static let maxNonceLength = 1024
    /// The most body bytes read when looking for `{"error":"use_dpop_nonce"}`.
    public static let maxBodyLength = 64 * 1024

    private let cache: any DPoPNonceCache

    /// Makes a handler.
    /// - Parameter cache: where nonces are kept per origin.
    public init(cache: any DPoPNonceCache) {
        self.cache = cache
    }

    /// The nonce to put in the next proof for a URL.
    /// - Parameter url: the request URL.
    /// - Returns: the origin's latest nonce, or nil.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/invalidURL(_:)`` or ``ShareKitDPoPInterface/DPoPError/storeFailure(_:)``.
    public func nonce(for url: String) throws(DPoPError) -> String? {
        let origin = try HTTPTargetURI(url).origin
        return try read(origin)
    }

    /// Stores a response's nonce and decides whether to repeat the request.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - headers: the response headers.
    ///   - body: the response body.
    ///   - url: the request URL.
    ///   - sentNonce: the nonce the request's proof carried.
    ///   - isRetry: whether the request was already the repetition.
    /// - Returns: the decision.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/invalidURL(_:)`` or ``ShareKitDPoPInterface/DPoPError/storeFailure(_:)``.
    public func evaluate(
        status: Int, headers: [String: String], body: [UInt8], url: String, sentNonce: String?, isRetry: Bool
    ) throws(DPoPError) -> DPoPNonceDecision {
        let origin = try HTTPTargetURI(url).origin
        let offered = Self.header("DPoP-Nonce", in: headers).flatMap { Self.isValidNonce($0) ? $0 : nil }
        let isChallenge = Self.isNonceChallenge(status: status, headers: headers, body: body)
        // Most responses carry neither: leave the (possibly file-backed) cache alone.
        guard offered != nil || isChallenge else { return .proceed }
        var latest = try read(origin)
        if let offered {
            if offered != latest {
                do {
                    try cache.store(offered, forOrigin: origin)
                } catch {
                    throw .storeFailure("\(error)")
                }
            }
            latest = offered
        }
        guard isChallenge else { return .proceed }
        // Repeat once, and only with a nonce the failed request did not already carry.
        guard !isRetry, let latest, latest != sentNonce else { return .challengeUnresolved }
        return .retry(nonce: latest)
    }

    /// Whether a response demands a nonce: `400` with `error` `use_dpop_nonce`
    /// in a JSON body (token endpoints), or `401` whose `WWW-Authenticate` has a
    /// `DPoP` challenge with `error="use_dpop_nonce"` (resources).
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - headers: the response headers.
    ///   - body: the response body.
    /// - Returns: true for a nonce challenge.
    static func isNonceChallenge(status: Int, headers: [String: String], body: [UInt8]) -> Bool {
        switch status {
        case 400:
            guard body.count <= maxBodyLength, let object = JSONValue(strictJSON: body)?.objectValue else {
                return false
            }
            return object["error"]?.stringValue == "use_dpop_nonce"
        case 401:
            guard let value = header("WWW-Authenticate", in: headers) else { return false }
            return AuthenticateChallenges(value).challenges.contains {
                $0.scheme == "dpop" && $0.parameters["error"] == "use_dpop_nonce"
            }
        default:
            return false
        }
    }

    /// A nonce as RFC 9449 section 8.1 allows it: 1*NQCHAR
    /// (`%x21 / %x23-5B / %x5D-7E`), here also at most ``maxNonceLength`` bytes.
    /// - Parameter nonce: the candidate.
    /// - Returns: true when it may be stored and sent.
    static func isValidNonce(_ nonce: String) -> Bool {
        let utf8 = nonce.utf8
        guard !utf8.isEmpty, utf8.count <= maxNonceLength else { return false }
        return utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    private static func header(_ name: String, in headers: [String: String]) -> String? {
        let lower = name.lowercased()
        guard let value = headers.first(where: { $0.key.lowercased() == lower })?.value else { return nil }
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = value.firstIndex(where: { !isBlank($0) }), let last = value.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(value[first...last])
    }

    private func read(_ origin: String) throws(DPoPError) -> String? {
        do {
            return try cache.nonce(forOrigin: origin)
        } catch {
            throw .storeFailure("\(error)")
        }
    }
}
