import Foundation
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitOpenSSLCrypto

/// Measures DPoP proof creation and verification on one thread, and
/// OpenSSL's own ECDSA P-256 rate in the same run, so the ratio does not
/// depend on the machine.
struct DPoPBenchmark {
    /// The goal: making a proof costs at most a ninth more than OpenSSL's bare signature.
    static let goalRatio = 0.9
    /// Alternating rounds of proofs and `openssl speed`.
    static let rounds = 5

    /// How long each measurement runs.
    let seconds: Double

    /// A resource request as the clients make them: with `ath` and a nonce.
    let url = "https://server.example.com/api/v1/threads/t1/messages"
    let accessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU-0123456789abcdef0123456789abcdef"
    let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"

    func run() throws {
        let crypto = OpenSSLCryptoProvider()
        let signer = try ES256ProofSigner(key: crypto.generateP256SigningKey(), crypto: crypto)

        // Proofs and OpenSSL's signatures in alternating rounds: whatever
        // else runs on the machine then weighs on both alike, and the ratio
        // of each round is taken (the median is the result).
        _ = try measure(seconds: 0.3) {
            _ = try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce)
        }
        var rounds: [(proofs: Rate, openssl: (sign: Double, verify: Double))] = []
        for _ in 0..<Self.rounds {
            let proofs = try measure(seconds: seconds) {
                _ = try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce)
            }
            rounds.append((proofs, try OpenSSLSpeed.ecdsaP256(seconds: Int(seconds.rounded(.up)))))
        }
        let ratios = rounds.map { $0.proofs.perCPUSecond / $0.openssl.sign }
        let middle = rounds.indices.sorted { ratios[$0] < ratios[$1] }[rounds.count / 2]
        let proofs = rounds[middle].proofs
        let openssl = rounds[middle].openssl
        report("dpop proofs/s (ES256, ath + nonce, 1 thread)", proofs)

        // Verifications: proofs made beforehand (each jti verifies once), one session key.
        let verifier = ES256ProofVerifier(
            crypto: crypto, replayStore: InMemoryReplayStore(), iatWindowSeconds: 600)
        let poolSize = Int(proofs.perCPUSecond * 0.4 * seconds) + 1000
        var pool: [String] = []
        pool.reserveCapacity(poolSize)
        for _ in 0..<poolSize {
            pool.append(try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nonce))
        }
        let requirement = DPoPNonceRequirement(acceptedNonces: [nonce], nonceToSend: nonce)
        var next = 0
        let verifies = try measure(seconds: seconds, limit: pool.count) {
            _ = try verifier.verify(
                DPoPVerificationInput(
                    proof: pool[next], method: "POST", url: url, accessToken: accessToken,
                    boundThumbprint: signer.thumbprint, nonce: requirement))
            next += 1
        }
        report("dpop verifies/s (all checks, 1 thread)", verifies)

        // OpenSSL's own rate, of the median round. `openssl speed` divides
        // by the CPU time it used, so the ratios use CPU time too.
        print(line("openssl speed ecdsap256 sign/s", openssl.sign))
        print(line("openssl speed ecdsap256 verify/s", openssl.verify))
        let ratio = ratios[middle]
        print(
            "rounds (proofs/s : openssl sign/s): "
                + rounds.map {
                    String(
                        format: "%.0f : %.0f = %.3f", $0.proofs.perCPUSecond, $0.openssl.sign,
                        $0.proofs.perCPUSecond / $0.openssl.sign)
                }.joined(separator: "; "))
        print(String(format: "ratio proofs/s : openssl sign/s = %.3f (median of %d rounds)", ratio, rounds.count))
        print(String(format: "ratio verifies/s : openssl verify/s = %.3f", verifies.perCPUSecond / openssl.verify))
        print(
            String(
                format: "GOAL dpop-vs-openssl value=%.3fx >= %gx %@ -- %.0f proofs/s against %.0f openssl sign/s "
                    + "(median of %d alternating rounds, per CPU second of one thread; %.2f us per proof, "
                    + "%.2f us per openssl signature)",
                ratio, Self.goalRatio, ratio >= Self.goalRatio ? "PASS" : "FAIL", proofs.perCPUSecond, openssl.sign,
                rounds.count, 1e6 / proofs.perCPUSecond, 1e6 / openssl.sign))
    }

    private func line(_ label: String, _ value: Double) -> String {
        label.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: "%10.1f", value)
    }

    private func report(_ label: String, _ rate: Rate) {
        print(line(label, rate.perCPUSecond) + String(format: "   (%.1f per wall-clock second)", rate.perWallSecond))
    }

    /// Calls per second of wall-clock time and of this thread's CPU time.
    struct Rate {
        /// Calls per second of CPU time (user and system) of the measuring
        /// thread: what other processes on the machine do not change.
        let perCPUSecond: Double
        /// Calls per second of elapsed time.
        let perWallSecond: Double
    }

    /// Runs `body` repeatedly for about `seconds` of elapsed time (or `limit` times).
    /// - Parameters:
    ///   - seconds: how long to run.
    ///   - limit: the most calls.
    ///   - body: one call.
    /// - Returns: the rates.
    /// - Throws: what `body` throws.
    private func measure(seconds: Double, limit: Int = .max, _ body: () throws -> Void) throws -> Rate {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = Self.threadCPUNanoseconds()
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
        let cpu = Double(Self.threadCPUNanoseconds() - cpuStart) / 1e9
        return Rate(perCPUSecond: Double(count) / cpu, perWallSecond: Double(count) / (Double(now - start) / 1e9))
    }

    /// CPU time (user and system) this thread has used, in nanoseconds.
    private static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
