import ShareKitCore
import ShareKitCryptoInterface

/// Ids, tokens and token hashes. Tokens are 256-bit CSPRNG values; the
/// database keeps only their SHA-256, so a copied database holds no usable token.
struct ServerIdentifiers: Sendable {
    let crypto: any CryptoProvider

    /// A new opaque id with a readable prefix (`m_…`, `up_…`).
    func id(_ prefix: String) -> String { prefix + "_" + Hex.encode(UUIDv7().bytes) }

    /// A new bearer token.
    func token() throws -> String { Base64URL.encode(try crypto.randomBytes(count: 32)) }

    /// The stored form of a token.
    func hash(_ token: String) throws -> String { Base64URL.encode(try crypto.sha256(contentsOf: token.utf8)) }

    /// Lowercase hexadecimal SHA-256 of bytes.
    func hexSHA256(_ bytes: [UInt8]) throws -> String {
        Hex.encode(try crypto.sha256(contentsOf: bytes))
    }
}
