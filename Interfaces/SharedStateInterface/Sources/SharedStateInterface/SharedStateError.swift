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

    public var description: String {
        switch self {
        case .keyNotAllowed(let k): return "shared state key '\(k)' is not on the allow-list"
        case .notAnInteger(let k): return "shared state key '\(k)' does not hold an integer"
        case .corrupt(let p, let r): return "shared state \(p) is corrupt: \(r)"
        case .insecurePermissions(let p, let m):
            return "refusing \(p): mode \(String(m, radix: 8)) lets other users in; fix with chmod 700 (directories) or 600 (files)"
        case .io(let op, let p, let e): return "\(op) \(p) failed (errno \(e))"
        }
    }
}
