import CShareKitCrypto
import ShareKitCryptoInterface

/// Streaming SHA-256 over one `EVP_MD_CTX`, reused across finalizations.
final class OpenSSLSHA256Hasher: SHA256Hasher {
    private let ctx: OpaquePointer
    private let md: OpaquePointer
    /// The first library call that failed since the last finalization, if any.
    private var failedOperation: CryptoError?

    /// Makes a hasher ready for a first message.
    /// - Throws: ``CryptoError/backendFailure(operation:code:)`` when libcrypto cannot make a context.
    init() throws {
        md = try Libcrypto.shared.requireSHA256()
        guard let ctx = EVP_MD_CTX_new() else { throw Libcrypto.failure("EVP_MD_CTX_new") }
        self.ctx = ctx
        guard EVP_DigestInit_ex(ctx, md, nil) == 1 else {
            EVP_MD_CTX_free(ctx)
            throw Libcrypto.failure("EVP_DigestInit_ex")
        }
    }

    deinit { EVP_MD_CTX_free(ctx) }

    func update(_ buffer: UnsafeRawBufferPointer) {
        guard failedOperation == nil, buffer.count > 0 else { return }
        if EVP_DigestUpdate(ctx, buffer.baseAddress, buffer.count) != 1 {
            failedOperation = Libcrypto.failure("EVP_DigestUpdate")
        }
    }

    func finalize() throws -> [UInt8] {
        defer {
            failedOperation = nil
            if EVP_DigestInit_ex(ctx, md, nil) != 1 {
                failedOperation = Libcrypto.failure("EVP_DigestInit_ex")
            }
        }
        if let failedOperation { throw failedOperation }
        var digest = [UInt8](repeating: 0, count: CryptoLimits.sha256DigestByteCount)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(ctx, $0.baseAddress, &length) }
        guard ok == 1, Int(length) == CryptoLimits.sha256DigestByteCount else {
            throw Libcrypto.failure("EVP_DigestFinal_ex")
        }
        return digest
    }
}
