import ShareKitKeychainInterface
import ShareKitSecureFiles

extension KeychainError {
    /// The keychain's own error for a failure of the secure-file layer, so
    /// callers see only ``KeychainError`` (its cases and messages).
    /// - Parameter error: what SecureFiles threw.
    init(_ error: SecureFileError) {
        switch error {
        case .insecurePermissions(let path, let mode, let expected):
            self = .insecurePermissions(path: path, mode: mode, expected: expected)
        case .wrongOwner(let path, let owner, let expected):
            self = .wrongOwner(path: path, owner: owner, expected: expected)
        case .wrongFileType(let path, _):
            self = .notARegularFile(path: path)
        case .io(let operation, let path, let errno):
            self = .io(operation: operation, path: path, errno: errno)
        }
    }
}
