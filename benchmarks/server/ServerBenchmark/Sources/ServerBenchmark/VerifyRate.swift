import BenchmarkSupport
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitOpenSSLCrypto

/// The DPoP module's own rates on one thread, measured as
/// benchmarks/dpop/DPoPBenchmark measures them: per second of the measuring
/// thread's CPU time (user and system), so that other work on the machine
/// does not change them; the wall-clock rate is kept beside.
struct Rate {
    /// Calls per second of CPU time of the measuring thread.
    let perCPUSecond: Double
    /// Calls per second of elapsed time.
    let perWallSecond: Double
}

enum VerifyRate {
    /// Measures proof creation and verification for a createMessage request
    /// as the server sees it: the same `htu`, `ath` of a real access token,
    /// no nonce (the seed keeps `require_nonce` false), every check of
    /// `ES256ProofVerifier` with an in-memory replay store and the server's
    /// default 60-second `iat` window.
    /// - Parameters:
    ///   - seconds: how long the verification runs.
    ///   - url: the createMessage URL.
    ///   - accessToken: an access token of the run.
    /// - Returns: proofs per second (while making the proofs to verify) and verifications per second.
    /// - Throws: when a proof cannot be made or does not verify.
    static func measure(seconds: Double, url: String, accessToken: String) throws -> (proofs: Rate, verifies: Rate) {
        let crypto = OpenSSLCryptoProvider()
        let signer = try ES256ProofSigner(key: crypto.generateP256SigningKey(), crypto: crypto)
        // Proofs made beforehand (each jti verifies once): for half the time,
        // which gives more than enough, as signing is faster than verifying.
        var pool: [String] = []
        let proofs = try measure(seconds: seconds / 2) {
            pool.append(try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nil))
        }
        let verifier = ES256ProofVerifier(crypto: crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: 60)
        var next = 0
        let verifies = try measure(seconds: seconds, limit: pool.count) {
            _ = try verifier.verify(
                DPoPVerificationInput(
                    proof: pool[next], method: "POST", url: url, accessToken: accessToken,
                    boundThumbprint: signer.thumbprint, nonce: nil))
            next += 1
        }
        return (proofs, verifies)
    }

    /// Runs `body` repeatedly for about `seconds` of elapsed time (or `limit` times).
    private static func measure(seconds: Double, limit: Int = .max, _ body: () throws -> Void) throws -> Rate {
        let start = Clock.nanoseconds()
        let cpuStart = Clock.threadCPUNanoseconds()
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        var now = start
        while now < deadline, count < limit {
            // Check the clock every 64 calls: reading it is cheap but not free.
            for _ in 0..<64 where count < limit {
                try body()
                count += 1
            }
            now = Clock.nanoseconds()
        }
        let cpu = Double(Clock.threadCPUNanoseconds() - cpuStart) / 1e9
        return Rate(perCPUSecond: Double(count) / cpu, perWallSecond: Double(count) / (Double(now - start) / 1e9))
    }
}
