import ShareKitInboxInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension InboxError {
    /// The inbox's error for a failed system call: a full disk or quota is
    /// ``InboxError/noSpace(path:)`` (the one failure a person can fix by
    /// freeing space), anything else ``InboxError/io(path:reason:)`` with
    /// the C library's text.
    /// - Parameters:
    ///   - operation: the call that failed (`rename`, `fsync`, …).
    ///   - path: the path it was about.
    ///   - errno: why.
    static func system(_ operation: String, path: String, errno: Int32) -> InboxError {
        if errno == ENOSPC || errno == EDQUOT { return .noSpace(path: path) }
        return .io(path: path, reason: "\(operation): \(String(cString: strerror(errno)))")
    }

    /// The inbox's error for a failure of the secure-file layer.
    /// - Parameter error: what SecureFiles threw.
    init(_ error: SecureFileError) {
        switch error {
        case .io(let operation, let path, let errno):
            self = .system(operation, path: path, errno: errno)
        case .insecurePermissions(let path, _, _), .wrongOwner(let path, _, _), .wrongFileType(let path, _):
            self = .io(path: path, reason: error.description)
        }
    }
}
