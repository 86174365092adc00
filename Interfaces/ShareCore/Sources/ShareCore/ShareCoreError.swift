/// Errors of the shared value types.
public enum ShareCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text or bytes are not a version 7 UUID.
    case invalidUUIDv7(String)
    /// The text is not unpadded base64url.
    case invalidBase64URL
    /// A share target could not be parsed; the associated text says why.
    case invalidTarget(String)

    public var description: String {
        switch self {
        case .invalidUUIDv7(let s): return "not a UUIDv7: \(s)"
        case .invalidBase64URL: return "not valid base64url"
        case .invalidTarget(let why): return "invalid target: \(why)"
        }
    }
}
