import FuzzSupport
import ShareKitCore
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitOpenSSLCrypto

/// The fixed request every proof is checked against.
let method = "POST"
let url = "https://api.example.com/api/v1/threads/t1/messages"
let now: Int64 = 1_767_225_600
let crypto: any CryptoProvider = OpenSSLCryptoProvider()
/// One key for the whole run, so signed inputs get past the signature check
/// and reach the claims (random bytes never would).
let key: any P256SigningKey = try! crypto.generateP256SigningKey()
let verifier = ES256ProofVerifier(
    crypto: crypto, replayStore: InMemoryReplayStore(capacity: 4096), iatWindowSeconds: 60, clock: { now })

/// The correct header for `key`, used by mode 1.
let validHeader: [UInt8] = Array(
    (#"{"typ":"dpop+jwt","alg":"ES256","jwk":"#
        + (try! JWK(xCoordinate: key.publicKey.x, yCoordinate: key.publicKey.y).canonicalJSON) + "}").utf8)

/// One input. Its first byte picks the mode:
/// - 0 (and anything not listed): the rest is the proof string itself;
/// - 1: the rest is the payload JSON, signed under the correct header;
/// - 2: the rest is `header JSON` NUL `payload JSON`, both signed.
/// Bit 7 of that byte sends an access token along (the `ath` check).
/// The verifier must return or throw a DPoPError; a trap or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = fuzzBytes(data, size)
    let rest = bytes[1...]
    let proof: String
    switch bytes[0] & 0x7F {
    case 1:
        proof = signed(header: validHeader, payload: Array(rest))
    case 2:
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        proof = signed(header: Array(rest[..<split]), payload: Array(rest[split...].dropFirst()))
    default:
        proof = String(decoding: rest, as: UTF8.self)
    }
    let token = bytes[0] & 0x80 != 0 ? "access-token" : nil
    _ = try? verifier.verify(DPoPVerificationInput(proof: proof, method: method, url: url, accessToken: token))
    return 0
}

/// A compact JWS over arbitrary header and payload bytes.
func signed(header: [UInt8], payload: [UInt8]) -> String {
    let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    guard let signature = try? key.sign(contentsOf: Array(input.utf8)) else { return input + "." }
    return input + "." + Base64URL.encode(signature)
}

@_cdecl("DPoPProofFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
