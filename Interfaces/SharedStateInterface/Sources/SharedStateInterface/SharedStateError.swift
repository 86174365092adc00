/// Why the shared state refused or failed.
public enum SharedStateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is not on the allow-list.
    case keyNotAllowed(String)
    /// A counter holds something that is not an integer.
    case notAnInteger(key: String)
    /// The state file exists but cannot be decoded.
    case corrupt(path: String, reason: String)
    /// A directory or file has permissions that would let others read it.
    case insecurePermissions(path: String, mode: UInt32)
    /// An operating-system call failed.
    case io(operation: String, path: String, errno: Int32)
    /// A value is larger than the state keeps (the state is for small values).
    case valueTooLarge(key: String, bytes: Int, limit: Int)
    /// A directory or file belongs to another user.
    case wrongOwner(path: String, owner: UInt32, expected: UInt32)
    /// A path is a symbolic link or not the kind of file expected.
    case notARegularFile(path: String)
    /// The state file was corrupt; it was moved aside to `movedTo` (kept for
    /// inspection, never dropped) and the state starts empty.
    case corruptMovedAside(path: String, movedTo: String, reason: String)
    /// A lock name that cannot be a file name (empty, `/`, leading `.`, too long).
    case invalidLockName(String)

    /// A message for a person: what was refused and how to fix it.
    public var description: String {
        switch self {
        case .keyNotAllowed(let k): return "shared state key '\(k)' is not on the allow-list"
        case .notAnInteger(let k): return "shared state key '\(k)' does not hold an integer"
        case .corrupt(let p, let r): return "shared state \(p) is corrupt: \(r)"
        case .insecurePermissions(let p, let m):
            return
                "refusing \(p): mode \(String(m, radix: 8)) lets other users in; fix with chmod 700 (directories) or 600 (files)"
        case .io(let op, let p, let e): return "\(op) \(p) failed (errno \(e))"
        case .valueTooLarge(let k, let bytes, let limit):
            return "shared state value for '\(k)' is too large: \(bytes) bytes, at most \(limit) allowed"
        case .wrongOwner(let p, let owner, let expected):
            return "refusing \(p): owned by uid \(owner), expected uid \(expected)"
        case .notARegularFile(let p):
            return "refusing \(p): not a regular file or directory (symbolic links are not followed)"
        case .corruptMovedAside(let p, let movedTo, let r):
            return "shared state \(p) was corrupt (\(r)); moved aside to \(movedTo), starting empty"
        case .invalidLockName(let name):
            return "invalid lock name '\(name)': use 1 to 100 letters, digits, '.', '-' or '_', not starting with '.'"
        }
    }
}
