/// Why a cryptographic operation failed. Messages name the operation and
/// the sizes involved, never key material, digests of secrets or plaintext.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input has the wrong number of bytes (a coordinate, a scalar, a signature).
    case invalidLength(what: String, expected: Int, actual: Int)
    /// A private scalar is zero or not below the order of the P-256 group,
    /// so it is not a P-256 private key.
    case invalidPrivateScalar
    /// The coordinates do not name a point on the P-256 curve.
    case invalidPublicKey
    /// A request the adapter refuses by design, e.g. asking for more random
    /// bytes at once than ``CryptoLimits/maxRandomByteCount``.
    case invalidArgument(String)
    /// The system's random number generator could not deliver; retry later
    /// or check that the operating system's entropy source works.
    case randomUnavailable
    /// The underlying library failed in a way the adapter did not expect.
    /// `operation` is the library call, `code` its error code (0 when none).
    case backendFailure(operation: String, code: UInt)
    /// The underlying library cannot be loaded on this system; the message
    /// says which library, why, and the Debian package to install.
    case libraryUnavailable(String)

    /// A message for a person: what failed and, where it helps, what to check.
    public var description: String {
        switch self {
        case .invalidLength(let what, let expected, let actual):
            return "\(what) must be \(expected) bytes, got \(actual)"
        case .invalidPrivateScalar:
            return "the private scalar is not a valid P-256 private key (zero or not below the group order)"
        case .invalidPublicKey:
            return "the coordinates are not a point on the P-256 curve"
        case .invalidArgument(let why):
            return "invalid argument: \(why)"
        case .randomUnavailable:
            return "the system random number generator failed; check the operating system's entropy source"
        case .backendFailure(let operation, let code):
            return "cryptographic library call \(operation) failed (error code \(code))"
        case .libraryUnavailable(let message):
            return message
        }
    }
}
