#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a secure-file operation refused a file or failed.
///
/// Each case names the path and what to do about it; none ever carries a
/// file's contents, so an error can be logged or shown as it is. Users map
/// these cases to their own error type at their boundary.
public enum SecureFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Group or others have permission bits on a file or directory (`mode`),
    /// so another user could read or plant files; `expected` is the mode it
    /// must have (``FileSecurity/directoryMode`` or ``FileSecurity/fileMode``).
    case insecurePermissions(path: String, mode: UInt32, expected: UInt32)
    /// A file or directory belongs to the user `owner`, not to the user
    /// running the program (`expected`, the effective uid).
    case wrongOwner(path: String, owner: UInt32, expected: UInt32)
    /// The path is a symbolic link (never followed), or not the kind of file
    /// expected (a FIFO or a directory where a regular file should be, …).
    case wrongFileType(path: String, expected: FileSecurity.Kind)
    /// A system call failed: `operation` names it (`open`, `rename`, `fsync`,
    /// …) and `errno` says why.
    case io(operation: String, path: String, errno: Int32)

    /// A message for a person: what was refused and how to fix it. It names
    /// paths, modes and user ids, never file contents.
    public var description: String {
        switch self {
        case .insecurePermissions(let path, let mode, let expected):
            let octal = String(expected, radix: 8)
            return
                "refusing \(path): mode \(String(mode, radix: 8)) lets other users in; fix with chmod \(octal) \(path)"
        case .wrongOwner(let path, let owner, let expected):
            return
                "refusing \(path): owned by uid \(owner), expected uid \(expected); run as that user, or move it away"
        case .wrongFileType(let path, let expected):
            let kind = expected == .directory ? "a directory" : "a regular file"
            return
                "refusing \(path): not \(kind) (symbolic links are not followed); move it away so it can be made again"
        case .io(let operation, let path, let errno):
            return "\(operation) \(path) failed: \(Self.message(errno: errno)) (errno \(errno))"
        }
    }

    /// Runs `body` and hands any ``SecureFileError`` it throws to `translate`,
    /// throwing what that returns; every other error passes unchanged. Users
    /// call this at their boundary so that their callers see only their own
    /// error type.
    /// - Parameters:
    ///   - translate: the user's error for a secure-file failure.
    ///   - body: the work over secure files.
    /// - Returns: what `body` returns.
    /// - Throws: `translate`'s error for a ``SecureFileError``, else what `body` throws.
    public static func translating<T, Translated: Error>(
        into translate: (SecureFileError) -> Translated, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error as SecureFileError {
            throw translate(error)
        }
    }

    /// The C library's text for an error number.
    private static func message(errno: Int32) -> String {
        guard let text = strerror(errno) else { return "unknown error" }
        return String(cString: text)
    }
}
