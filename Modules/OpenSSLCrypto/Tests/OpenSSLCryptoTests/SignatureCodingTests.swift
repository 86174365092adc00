import ShareKitCryptoInterface
import Testing

@testable import ShareKitOpenSSLCrypto

/// The reading of libcrypto's DER signatures into JOSE's `R || S`, which
/// signing does in place (no libcrypto decoder, no allocations).
@Suite("ECDSA signature DER to R || S")
struct SignatureCodingTests {
    /// R || S values with every kind of leading zero: none, one or more
    /// zero bytes in R or S, a high bit (DER adds a zero byte), small numbers.
    static let raws: [[UInt8]] = {
        var values: [[UInt8]] = []
        var generator = SystemRandomNumberGenerator()
        for zeros in [0, 1, 2, 31] {
            for highBit in [false, true] {
                var r = (0..<32).map { _ in UInt8.random(in: 1...255, using: &generator) }
                var s = (0..<32).map { _ in UInt8.random(in: 1...255, using: &generator) }
                for index in 0..<zeros { r[index] = 0 }
                r[zeros] = highBit ? 0x80 | r[zeros] : 0x7F & r[zeros] | 0x01
                s[0] = highBit ? 0x7F & s[0] | 0x01 : 0x80 | s[0]
                values.append(r + s)
                values.append(s + r)
            }
        }
        return values
    }()

    @Test("libcrypto's DER of any R || S reads back to the same 64 bytes")
    func roundTrip() {
        for raw in Self.raws {
            let decoded =
                ECDSASignatureCoding.withDER(fromRaw: raw) { der in try? ECDSASignatureCoding.rawSignature(fromDER: der)
                }
                ?? nil
            #expect(decoded == raw, "\(raw)")
        }
    }

    @Test("DER that is not exactly SEQUENCE { INTEGER, INTEGER } of P-256 sizes is refused")
    func refusesOtherForms() throws {
        let r: [UInt8] = [0x02, 0x01, 0x05]
        let s: [UInt8] = [0x02, 0x01, 0x07]
        let good: [UInt8] = [0x30, 0x06] + r + s
        #expect(try good.withUnsafeBytes { try ECDSASignatureCoding.rawSignature(fromDER: $0) }.suffix(33).first == 5)
        let big = [UInt8](repeating: 0x11, count: 33)
        let candidates: [[UInt8]] = [
            [],
            [0x31, 0x06] + r + s,  // a SET, not a SEQUENCE
            [0x30, 0x07] + r + s,  // length beyond the end
            [0x30, 0x08] + r + s + [0x00, 0x00],  // something after S
            [0x30, 0x06] + r + [0x04, 0x01, 0x07],  // S not an INTEGER
            [0x30, 0x06] + [0x02, 0x01, 0x85] + s,  // a negative R
            [0x30, 0x81, 0x06] + r + s,  // a long-form length
            [0x30, 0x27] + [0x02, 0x22, 0x00] + big + s,  // R of 34 bytes
            [0x30, 0x26] + [0x02, 0x21] + big + s,  // R of 33 bytes without a leading zero
        ]
        for candidate in candidates {
            #expect(throws: CryptoError.self, "\(candidate)") {
                try candidate.withUnsafeBytes { try ECDSASignatureCoding.rawSignature(fromDER: $0) }
            }
        }
    }
}
