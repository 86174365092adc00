import CShareKitCrypto
import Synchronization

/// A small pool of `EVP_PKEY_CTX` objects prepared for one operation
/// (signing or verifying) with one key.
///
/// Preparing a context (`EVP_PKEY_CTX_new_from_pkey` and `..._init`) costs a
/// provider lookup and allocations; a prepared context can be used for any
/// number of operations but by one thread at a time. The pool hands each
/// caller its own context and takes it back afterwards, so concurrent
/// signers never share one and a single-threaded signer reuses the same
/// context every time.
final class PKeyContextPool: Sendable {
    /// At most this many idle contexts are kept; more are freed on return.
    /// A handful covers the threads of a server; extra contexts are cheap to rebuild.
    static let maxIdle = 16

    /// Idle contexts as pointer bit patterns (plain integers, so the mutex
    /// holds only `Sendable` values).
    private let idle = Mutex<[UInt]>([])
    /// The key the contexts belong to (`EVP_PKEY *`); the pool holds a reference.
    private let pkeyBits: UInt
    /// Whether contexts are prepared for signing (otherwise for verifying).
    private let forSigning: Bool

    /// Makes an empty pool for one key.
    /// - Parameters:
    ///   - pkey: the key; the pool takes its own reference.
    ///   - forSigning: prepare contexts with `EVP_PKEY_sign_init` (true) or `EVP_PKEY_verify_init`.
    init(pkey: OpaquePointer, forSigning: Bool) {
        EVP_PKEY_up_ref(pkey)
        self.pkeyBits = UInt(bitPattern: pkey)
        self.forSigning = forSigning
    }

    deinit {
        for bits in idle.withLock({ $0 }) {
            EVP_PKEY_CTX_free(OpaquePointer(bitPattern: bits))
        }
        EVP_PKEY_free(OpaquePointer(bitPattern: pkeyBits))
    }

    /// Runs `body` with a prepared context that no other thread uses meanwhile.
    /// - Parameter body: the operation; gets the `EVP_PKEY_CTX *`.
    /// - Returns: what `body` returns.
    /// - Throws: ``ShareKitCryptoInterface/CryptoError/backendFailure(operation:code:)``
    ///   when no context can be prepared, or what `body` throws.
    func withContext<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let ctx = try take()
        defer { give(ctx) }
        return try body(ctx)
    }

    private func take() throws -> OpaquePointer {
        if let bits = idle.withLock({ $0.popLast() }), let ctx = OpaquePointer(bitPattern: bits) {
            return ctx
        }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, OpaquePointer(bitPattern: pkeyBits), nil) else {
            throw Libcrypto.failure("EVP_PKEY_CTX_new_from_pkey")
        }
        let prepared = forSigning ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx)
        guard prepared == 1 else {
            EVP_PKEY_CTX_free(ctx)
            throw Libcrypto.failure(forSigning ? "EVP_PKEY_sign_init" : "EVP_PKEY_verify_init")
        }
        return ctx
    }

    private func give(_ ctx: OpaquePointer) {
        let bits = UInt(bitPattern: ctx)
        let kept = idle.withLock { list -> Bool in
            guard list.count < Self.maxIdle else { return false }
            list.append(bits)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(ctx) }
    }
}
