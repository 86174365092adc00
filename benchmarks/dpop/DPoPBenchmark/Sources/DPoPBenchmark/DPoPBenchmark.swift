import CryptoInterface
import DPoP
import DPoPInterface
import Foundation
import OpenSSLCrypto

/// Measures DPoP proof creation and verification on one thread, and
/// OpenSSL's own ECDSA P-256 rate in the same run, so the ratio does not
/// depend on the machine.
struct DPoPBenchmark {
    /// How long each measurement runs.
    let seconds: Double

    /// A resource request as the clients make them: with `ath` and a nonce.
    let url = "https://server.example.com/api/v1/threads/t1/messages"
    let accessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU-0123456789abcdef0123456789abcdef"
    let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"

    func run() throws {
        let crypto = OpenSSLCryptoProvider()
        let signer = try ES256ProofSigner(key: crypto.generateP256SigningKey(), crypto: crypto)

        // Proofs: warm up, then count for `seconds`.
        _ = try measure(seconds: 0.3) {
            _ = try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce)
        }
        let proofRate = try measure(seconds: seconds) {
            _ = try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce)
        }
        print(String(format: "dpop proofs/s (ES256, ath + nonce, 1 thread): %10.1f", proofRate))

        // Verifications: proofs made beforehand (each jti verifies once), one session key.
        let verifier = ES256ProofVerifier(
            crypto: crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: 600)
        let poolSize = Int(proofRate * 0.25 * seconds) + 1000
        var proofs: [String] = []
        proofs.reserveCapacity(poolSize)
        for _ in 0..<poolSize {
            proofs.append(try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce))
        }
        let requirement = DPoPNonceRequirement(acceptedNonces: [nonce], nonceToSend: nonce)
        var next = 0
        let verifyRate = try measure(seconds: seconds, limit: proofs.count) {
            _ = try verifier.verify(
                DPoPVerificationInput(
                    proof: proofs[next], method: "POST", url: url, accessToken: accessToken,
                    boundThumbprint: signer.thumbprint, nonce: requirement))
            next += 1
        }
        print(String(format: "dpop verifies/s (all checks, 1 thread):        %10.1f", verifyRate))

        // OpenSSL's own rate, measured now on the same machine.
        let openssl = try OpenSSLSpeed.ecdsaP256(seconds: Int(seconds.rounded(.up)))
        print(String(format: "openssl speed ecdsap256 sign/s:                 %10.1f", openssl.sign))
        print(String(format: "openssl speed ecdsap256 verify/s:               %10.1f", openssl.verify))
        let ratio = proofRate / openssl.sign
        print(
            String(
                format: "ratio proofs/s : openssl sign/s = %.3f (goal >= 0.8) %@", ratio,
                ratio >= 0.8 ? "OK" : "BELOW GOAL"))
        print(String(format: "ratio verifies/s : openssl verify/s = %.3f", verifyRate / openssl.verify))
    }

    /// Runs `body` repeatedly for about `seconds` (or `limit` times) and returns calls per second.
    private func measure(seconds: Double, limit: Int = .max, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        var now = start
        while now < deadline, count < limit {
            // Check the clock every 64 calls: reading it is cheap but not free.
            for _ in 0..<64 where count < limit {
                try body()
                count += 1
            }
            now = DispatchTime.now().uptimeNanoseconds
        }
        return Double(count) / (Double(now - start) / 1e9)
    }
}
