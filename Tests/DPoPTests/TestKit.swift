import Foundation
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterfaceTesting
import ShareKitOpenSSLCrypto
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import ShareKitTestSupport

/// Shared fixtures: a provider, keys, fixed clocks, and a way to sign
/// arbitrary header and payload JSON, so tests can build proofs that break
/// exactly one rule.
enum TestKit {
    static let crypto: any CryptoProvider = OpenSSLCryptoProvider()
    static let now: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let clock: @Sendable () -> Int64 = { now }

    /// A fresh key and a signer over it with the fixed clock.
    static func signer() throws -> (key: any P256SigningKey, signer: ES256ProofSigner) {
        let key = try crypto.generateP256SigningKey()
        return (key, try ES256ProofSigner(key: key, crypto: crypto, clock: clock))
    }

    /// A verifier with a fresh in-memory replay store and the fixed clock.
    static func verifier(window: Int64 = 60) -> ES256ProofVerifier {
        ES256ProofVerifier(
            crypto: crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: window, clock: clock)
    }

    /// The JWK JSON of a key, members in RFC 7638 order.
    static func jwkJSON(_ key: any P256SigningKey) throws -> String {
        try JWK(xCoordinate: key.publicKey.x, yCoordinate: key.publicKey.y).canonicalJSON
    }

    /// The header a correct proof has.
    static func header(_ key: any P256SigningKey) throws -> String {
        #"{"typ":"dpop+jwt","alg":"ES256","jwk":"# + (try jwkJSON(key)) + "}"
    }

    /// A payload with the usual claims, each overridable.
    static func payload(
        jti: String = UUID().uuidString, htm: String = "GET", htu: String = "https://api.example.com/resource",
        iat: Int64 = now, extra: String = ""
    ) -> String {
        #"{"jti":""# + jti + #"","htm":""# + htm + #"","htu":""# + htu + #"","iat":"# + String(iat) + extra + "}"
    }

    /// Signs arbitrary JSON texts as a compact JWS with ES256.
    static func craft(header: String, payload: String, key: any P256SigningKey) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(try key.sign(contentsOf: Array(input.utf8)))
    }

    /// Splits a compact JWS and decodes its header and payload as text.
    static func decode(_ proof: String) throws -> (header: String, payload: String, signature: [UInt8]) {
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw DPoPError.malformedProof("test: not three parts") }
        return (
            String(decoding: try Base64URL.decode(parts[0]), as: UTF8.self),
            String(decoding: try Base64URL.decode(parts[1]), as: UTF8.self),
            try Base64URL.decode(parts[2])
        )
    }

    /// The claims of a proof as a dictionary, parsed by Foundation (an independent parser).
    static func claims(_ proof: String) throws -> [String: Any] {
        let payload = try decode(proof).payload
        return try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] ?? [:]
    }
}

/// Runs Python 3 for checks by independent implementations.
enum Python {
    /// Whether `python3` can import `module`; when not, the reason is printed
    /// and the tests that need it are skipped.
    static func has(_ module: String) -> Bool {
        let probe = try? runProcess("/usr/bin/env", ["python3", "-c", "import \(module)"])
        if probe?.status == 0 { return true }
        print("skipping checks by an independent implementation: python3 cannot import '\(module)'")
        return false
    }

    static let hasCryptography = has("cryptography")
    static let hasJoserfc = has("joserfc")

    /// Runs a script with arguments and standard input.
    static func run(_ script: String, _ arguments: [String] = [], stdin: String? = nil) throws -> ProcessResult {
        try runProcess("/usr/bin/env", ["python3", "-c", script] + arguments, stdin: stdin)
    }
}
