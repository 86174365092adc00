/// Why a secret store refused or failed. Messages name paths and items,
/// never values.
public enum KeychainError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A directory or item has permissions that would let others read it.
    case insecurePermissions(path: String, mode: UInt32, expected: UInt32)
    /// A directory or item belongs to another user.
    case wrongOwner(path: String, owner: UInt32, expected: UInt32)
    /// A path is a symbolic link or not the kind of file expected.
    case notARegularFile(path: String)
    /// The item exists but cannot be decoded.
    case corruptItem(SecretItemKey)
    /// A name in the key cannot be used safely (empty, `/`, `..`, control characters).
    case invalidName(String)
    /// The backend is not available here (no D-Bus session, no keyring daemon).
    case backendUnavailable(String)
    /// An operating-system call failed.
    case io(operation: String, path: String, errno: Int32)
    /// The value is larger than the backend stores; names the item and the
    /// sizes, never the value.
    case valueTooLarge(SecretItemKey, bytes: Int, limit: Int)
    /// The backend is there but refused or failed an operation (a D-Bus or
    /// Secret Service error); `reason` is the backend's message.
    case backendFailed(operation: String, reason: String)

    /// A message for a person: what was refused and how to fix it, naming
    /// paths and items but never a value.
    public var description: String {
        switch self {
        case .insecurePermissions(let path, let mode, let expected):
            return
                "refusing \(path): mode \(String(mode, radix: 8)) but it must be \(String(expected, radix: 8)); fix with chmod \(String(expected, radix: 8)) \(path)"
        case .wrongOwner(let path, let owner, let expected):
            return "refusing \(path): owned by uid \(owner), expected uid \(expected)"
        case .notARegularFile(let path):
            return "refusing \(path): not a regular file or directory (symbolic links are not followed)"
        case .corruptItem(let key):
            return "keychain item \(key) is corrupt"
        case .invalidName(let name):
            return "invalid keychain name '\(name)'"
        case .backendUnavailable(let why):
            return "keychain backend unavailable: \(why)"
        case .io(let operation, let path, let errno):
            return "\(operation) \(path) failed (errno \(errno))"
        case .valueTooLarge(let key, let bytes, let limit):
            return "keychain item \(key) is too large: \(bytes) bytes, at most \(limit) allowed"
        case .backendFailed(let operation, let reason):
            return "keychain backend failed to \(operation): \(reason)"
        }
    }
}
